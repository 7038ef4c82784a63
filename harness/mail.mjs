/**
 * A mail catcher on 127.0.0.1: the smallest SMTP server n8n's Email Send node (nodemailer) can
 * deliver to, without TLS or login. It keeps every message it receives, so a test can read what
 * n8n sent, for example the approve link of a Human review ("send and wait") e-mail.
 *
 * Credential for n8n (`smtp`): host 127.0.0.1, the port of `url`, secure false, Disable STARTTLS on.
 */
import net from 'node:net';

/** The body of a quoted-printable part as text (soft line breaks joined, =XX decoded). */
export function decodeQuotedPrintable(text) {
	const joined = text.replace(/=\r?\n/g, '');
	const bytes = [];
	for (let index = 0; index < joined.length; index++) {
		const hex = joined.slice(index + 1, index + 3);
		if (joined[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
			bytes.push(Number.parseInt(hex, 16));
			index += 2;
		} else {
			bytes.push(...Buffer.from(joined[index], 'utf8'));
		}
	}
	return Buffer.from(bytes).toString('utf8');
}

/** A received message: envelope, raw text, and its body decoded (quoted-printable or base64). */
function readMessage(envelope, raw) {
	const [head, ...rest] = raw.split(/\r?\n\r?\n/);
	let body = rest.join('\n\n');
	if (/content-transfer-encoding:\s*quoted-printable/i.test(raw))
		body = decodeQuotedPrintable(body);
	else if (/content-transfer-encoding:\s*base64/i.test(raw)) {
		body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	}
	const subject = /^subject:\s*(.*)$/im.exec(head)?.[1] ?? '';
	const links = [...body.matchAll(/href="([^"]+)"/g)].map((match) =>
		match[1].replace(/&amp;/g, '&'),
	);
	return { ...envelope, subject, raw, body, links };
}

/**
 * @returns {Promise<{ url: string, port: number, messages: object[], close: () => Promise<void> }>}
 */
export async function startMailCatcher() {
	const messages = [];
	const sockets = new Set();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		let buffer = '';
		let inData = false;
		let envelope = { from: '', to: [] };
		const reply = (line) => socket.write(`${line}\r\n`);
		reply('220 127.0.0.1 ESMTP mail catcher');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('utf8');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end === -1) return;
					const raw = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
					buffer = buffer.slice(end + 5);
					inData = false;
					messages.push(readMessage(envelope, raw));
					envelope = { from: '', to: [] };
					reply('250 2.0.0 queued');
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline === -1) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') {
					reply('250-127.0.0.1');
					reply('250-8BITMIME');
					reply('250 SMTPUTF8');
				} else if (verb === 'HELO') reply('250 127.0.0.1');
				else if (verb === 'MAIL') {
					envelope.from = line.slice(10).trim();
					reply('250 2.1.0 ok');
				} else if (verb === 'RCPT') {
					envelope.to.push(line.slice(8).trim());
					reply('250 2.1.5 ok');
				} else if (verb === 'DATA') {
					inData = true;
					reply('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'QUIT') {
					reply('221 2.0.0 bye');
					socket.end();
					return;
				} else if (verb === 'RSET' || verb === 'NOOP') reply('250 2.0.0 ok');
				else reply('502 5.5.2 not implemented');
			}
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `smtp://127.0.0.1:${port}`,
		port,
		messages,
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
