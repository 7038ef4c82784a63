import {
	fingerprint,
	isSignature,
	sign,
	verifyBody,
} from '../../nodes/CompanyPaymentsTrigger/signature';
import { SECRET_MAX_AGE_MS } from '../../nodes/CompanyPaymentsTrigger/secretCache';
import {
	deliver,
	freshNodeId,
	hmacHex,
	OLD_SECRET_DUMMY,
	ROTATED_SECRET_DUMMY,
	SECRET_DUMMY,
} from './helpers/trigger';
import type { DeliveryResult } from './helpers/trigger';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');
const MINUTE = 60_000;

/** A 401 written by the node itself, with no execution started. */
function expectRejected(outcome: DeliveryResult): void {
	expect(outcome.result).toEqual({ noWebhookResponse: true });
	expect(outcome.result.workflowData).toBeUndefined();
	expect(outcome.response.statusCode).toBe(401);
	expect(outcome.response.ended).toBe(true);
	expect(outcome.response.headers['content-type']).toContain('application/json');
	expect(JSON.parse(outcome.response.body ?? '')).toEqual({
		message: 'Unauthorized: X-Service-Signature is missing or does not match the body',
	});
}

/** 200 with the node's own JSON acknowledgement, and the item handed to n8n. */
function expectAccepted(outcome: DeliveryResult): void {
	expect(outcome.result.noWebhookResponse).toBe(true);
	expect(outcome.result.workflowData).toBeDefined();
	expect(outcome.item).toBeDefined();
	expect(outcome.response.statusCode).toBe(200);
	expect(outcome.response.ended).toBe(true);
	expect(JSON.parse(outcome.response.body ?? '')).toMatchObject({ received: true, executed: true });
}

function logsText(outcome: DeliveryResult): string {
	return outcome.logs.map((entry) => entry.message).join('\n');
}

describe('signature over the raw bytes', () => {
	// Extra spaces, a key order n8n would not produce, a raw Cyrillic string and an escaped one.
	const raw =
		'{ "status":"success",  "event" : "order.status_changed", "merchantName":"Кофейня \\u00abУ дома\\u00bb", "amountRub":1500.0 }';

	it('accepts a signature over bytes that differ from re-serialised JSON', async () => {
		const parsed = JSON.parse(raw) as object;
		expect(JSON.stringify(parsed)).not.toBe(raw);
		expect(hmacHex(JSON.stringify(parsed), SECRET_DUMMY)).not.toBe(hmacHex(raw, SECRET_DUMMY));

		const outcome = await deliver({ body: Buffer.from(raw, 'utf8') });
		expectAccepted(outcome);
		expect(outcome.item).toMatchObject({
			event: 'order.status_changed',
			merchantName: 'Кофейня «У дома»',
			amountRub: 1500,
		});
	});

	it('refuses a signature computed over the re-serialised JSON instead of the bytes', async () => {
		const parsed = JSON.parse(raw) as object;
		expectRejected(
			await deliver({ body: raw, signature: hmacHex(JSON.stringify(parsed), SECRET_DUMMY) }),
		);
	});

	it('verifies a raw body that n8n kept as a string', async () => {
		expectAccepted(await deliver({ body: raw }));
	});

	it('verifies multi-byte characters as UTF-8 bytes', async () => {
		const body = '{"event":"card.assigned","externalId":"карта-№7 🚀"}';
		const outcome = await deliver({
			body: Buffer.from(body, 'utf8'),
			signature: createSignature(Buffer.from(body, 'utf8')),
		});
		expectAccepted(outcome);
		expect(outcome.item?.externalId).toBe('карта-№7 🚀');
	});

	it('accepts upper-case and mixed-case hex', async () => {
		const body = '{"event":"card.assigned","externalId":"c-1"}';
		const hex = hmacHex(body, SECRET_DUMMY);
		expectAccepted(await deliver({ body, signature: hex.toUpperCase() }));
		const mixed = hex
			.split('')
			.map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c))
			.join('');
		expectAccepted(await deliver({ body, signature: mixed }));
	});

	it('refuses a body changed after signing', async () => {
		const signed = '{"event":"payout.status_changed","refunded":false}';
		const tampered = '{"event":"payout.status_changed","refunded":true}';
		expectRejected(await deliver({ body: tampered, signature: hmacHex(signed, SECRET_DUMMY) }));
	});
});

function createSignature(body: Buffer): string {
	return hmacHex(body, SECRET_DUMMY);
}

describe('malformed or wrong signatures get 401 and start nothing', () => {
	const body = '{"event":"deposit.completed","depositId":"dep_1"}';
	const good = hmacHex(body, SECRET_DUMMY);

	it.each([
		['a wrong key', hmacHex(body, OLD_SECRET_DUMMY)],
		['the wrong digest of the right length', 'a'.repeat(64)],
		['a truncated signature', good.slice(0, 63)],
		['a signature one character too long', `${good}0`],
		['half a signature', good.slice(0, 32)],
		['non-hex characters', `${good.slice(0, 63)}g`],
		['a sha256= prefix', `sha256=${good}`],
		['surrounding spaces', ` ${good} `],
		['base64 instead of hex', Buffer.from(good, 'hex').toString('base64')],
		['an empty header', ''],
		['two signatures joined by a proxy', `${good}, ${good}`],
	])('refuses %s', async (_label, signature) => {
		const outcome = await deliver({ body, signature });
		expectRejected(outcome);
	});

	it('refuses a delivery without X-Service-Signature', async () => {
		const outcome = await deliver({ body, signature: null });
		expectRejected(outcome);
		expect(logsText(outcome)).toContain('X-Service-Signature header is missing');
	});

	it('refuses with 415 when n8n kept no raw body and the body cannot be read any more', async () => {
		for (const outcome of [
			await deliver({ body, noRawBody: true }),
			await deliver({ body, lazyRawBody: new Error('Request body stream was aborted') }),
		]) {
			expect(outcome.result).toEqual({ noWebhookResponse: true });
			expect(outcome.response.statusCode).toBe(415);
			expect(JSON.parse(outcome.response.body ?? '').message).toContain('Unsupported Media Type');
		}
	});

	it('reads the body itself when n8n left it unread (typeVersion 2, a type n8n does not parse)', async () => {
		const outcome = await deliver({
			body,
			parsed: undefined,
			lazyRawBody: true,
			typeVersion: 2,
			headers: { 'content-type': 'application/octet-stream' },
		});
		expectAccepted(outcome);
		expect(outcome.item).toMatchObject({ event: 'deposit.completed' });
		expectRejected(
			await deliver({
				body,
				parsed: undefined,
				lazyRawBody: true,
				typeVersion: 2,
				signature: hmacHex(`${body} `, SECRET_DUMMY),
			}),
		);
	});

	it('never writes the secret into the log', async () => {
		const outcome = await deliver({ body, signature: hmacHex(body, OLD_SECRET_DUMMY) });
		expectRejected(outcome);
		expect(logsText(outcome)).not.toContain(SECRET_DUMMY);
		expect(logsText(outcome)).not.toContain(OLD_SECRET_DUMMY);
		expect(outcome.response.body).not.toContain(SECRET_DUMMY);
	});

	it('takes only 64 hex characters as a signature', () => {
		expect(isSignature('A'.repeat(64))).toBe(true);
		expect(isSignature(undefined)).toBe(false);
		expect(isSignature(['a'.repeat(64)])).toBe(false);
		expect(isSignature('z'.repeat(64))).toBe(false);
		expect(sign('x', '')).toBe(hmacHex('x', ''));
	});

	it('tries the keys in order and names the one that verified', () => {
		const keys = [
			{ key: SECRET_DUMMY, kind: 'secret' as const },
			{ key: OLD_SECRET_DUMMY, kind: 'previousSecret' as const },
		];
		expect(verifyBody(body, hmacHex(body, SECRET_DUMMY), keys)).toBe('secret');
		expect(verifyBody(Buffer.from(body), hmacHex(body, OLD_SECRET_DUMMY), keys)).toBe(
			'previousSecret',
		);
		expect(verifyBody(body, hmacHex(body, 'other'), keys)).toBeUndefined();
		expect(verifyBody(body, 'not a signature', keys)).toBeUndefined();
		expect(verifyBody(body, hmacHex(body, SECRET_DUMMY), [])).toBeUndefined();
	});
});

describe('fail closed without a secret', () => {
	const body = '{"event":"order.status_changed","orderId":"o-1"}';

	it('refuses everything when no secret is configured, even a valid empty-key signature', async () => {
		const outcome = await deliver({ body, webhookSecret: '', signWith: '' });
		expectRejected(outcome);
		expect(outcome.logs).toContainEqual({
			level: 'warn',
			message: expect.stringContaining('no webhook secret is configured'),
		});
	});

	it('treats a secret of only spaces as no secret', async () => {
		expectRejected(await deliver({ body, webhookSecret: '   ', signWith: '' }));
	});

	it('accepts empty-key signatures only with the explicit option', async () => {
		const outcome = await deliver({
			body,
			webhookSecret: '',
			signWith: '',
			parameters: { options: { allowEmptyKey: true } },
		});
		expectAccepted(outcome);
		expect(outcome.item?.orderId).toBe('o-1');
	});

	it('still needs a signature in empty-key mode', async () => {
		expectRejected(
			await deliver({
				body,
				webhookSecret: '',
				signature: null,
				parameters: { options: { allowEmptyKey: true } },
			}),
		);
	});

	it('refuses empty-key signatures once a secret is configured, option or not', async () => {
		expectRejected(
			await deliver({ body, signWith: '', parameters: { options: { allowEmptyKey: true } } }),
		);
	});

	it('refuses when the credential cannot be read and no rotated secret is kept', async () => {
		const outcome = await deliver({ body, webhookSecret: new Error('credential not found') });
		expectRejected(outcome);
		expect(logsText(outcome)).toContain('could not read its credential (credential not found)');
	});
});

describe('previous secret during the grace period', () => {
	const body = '{"event":"payout.status_changed","payoutId":"po_1","refunded":false}';

	/** Static data as `create` leaves it after rotating away from OLD_SECRET_DUMMY. */
	function rotatedAt(at: number) {
		return {
			rotatedSecret: {
				current: ROTATED_SECRET_DUMMY,
				previous: OLD_SECRET_DUMMY,
				rotatedAt: at,
				credentialFingerprint: fingerprint(OLD_SECRET_DUMMY),
			},
		};
	}

	it('uses the rotated secret kept in static data while the credential is unchanged', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 60 * MINUTE);
		const staticData = rotatedAt(T0);
		expectAccepted(
			await deliver({
				body,
				webhookSecret: OLD_SECRET_DUMMY,
				signWith: ROTATED_SECRET_DUMMY,
				staticData,
			}),
		);
	});

	it('accepts the previous secret inside the grace period and refuses it after', async () => {
		const nodeId = freshNodeId();
		const staticData = rotatedAt(T0);
		const old = {
			body,
			nodeId,
			staticData,
			webhookSecret: OLD_SECRET_DUMMY,
			signWith: OLD_SECRET_DUMMY,
		};
		const now = jest.spyOn(Date, 'now');

		now.mockReturnValue(T0 + 9 * MINUTE + 59_000);
		expectAccepted(await deliver(old));

		now.mockReturnValue(T0 + 10 * MINUTE);
		expectRejected(await deliver(old));

		expectAccepted(await deliver({ ...old, signWith: ROTATED_SECRET_DUMMY }));
		// Once past the grace period, the old secret is no longer kept in the static data.
		expect(staticData.rotatedSecret.previous).toBeUndefined();
		expect(staticData.rotatedSecret.current).toBe(ROTATED_SECRET_DUMMY);
	});

	it('follows the Previous Secret Grace Period option', async () => {
		const staticData = rotatedAt(T0);
		const now = jest.spyOn(Date, 'now');
		const old = { body, staticData, webhookSecret: OLD_SECRET_DUMMY, signWith: OLD_SECRET_DUMMY };

		now.mockReturnValue(T0 + 25 * MINUTE);
		expectAccepted(await deliver({ ...old, parameters: { options: { graceMinutes: 30 } } }));
		now.mockReturnValue(T0 + 1);
		expectRejected(await deliver({ ...old, parameters: { options: { graceMinutes: 0 } } }));
	});

	it('keeps verifying with the rotated secret when the credential cannot be read', async () => {
		// As `create` leaves it: rotated away from the credential's secret (not from an empty one).
		const staticData = rotatedAt(T0);
		const unreadable = { body, webhookSecret: new Error('decryption failed'), staticData };
		const now = jest.spyOn(Date, 'now');
		now.mockReturnValue(T0 + MINUTE);
		expectAccepted(await deliver({ ...unreadable, signWith: OLD_SECRET_DUMMY }));
		now.mockReturnValue(T0 + 60 * MINUTE);
		expectAccepted(await deliver({ ...unreadable, signWith: ROTATED_SECRET_DUMMY }));
		expectRejected(await deliver({ ...unreadable, signWith: OLD_SECRET_DUMMY }));
		expectRejected(await deliver({ ...unreadable, signWith: '' }));
	});

	it('lets a secret put into the credential after the rotation win (the rotated one signs retries one grace period more)', async () => {
		const now = jest.spyOn(Date, 'now').mockReturnValue(T0 + MINUTE);
		const staticData = rotatedAt(T0);
		expectAccepted(await deliver({ body, webhookSecret: SECRET_DUMMY, staticData }));
		const rotatedSigned = {
			body,
			webhookSecret: SECRET_DUMMY,
			signWith: ROTATED_SECRET_DUMMY,
			staticData,
		};
		// Outside read 2, finding 4: a retry signed before the user replaced the secret passes for
		// one grace period counted from the moment the trigger first saw the new secret.
		now.mockReturnValue(T0 + MINUTE + 10 * MINUTE - 1);
		expectAccepted(await deliver(rotatedSigned));
		now.mockReturnValue(T0 + MINUTE + 10 * MINUTE);
		expectRejected(await deliver(rotatedSigned));
	});

	it('counts the grace period from its own rotation, even when the first delivery comes later', async () => {
		const staticData = rotatedAt(T0);
		jest.spyOn(Date, 'now').mockReturnValue(T0 + 11 * MINUTE);
		// The first delivery after the rotation is a late one signed with the replaced secret.
		const old = { body, staticData, webhookSecret: OLD_SECRET_DUMMY, signWith: OLD_SECRET_DUMMY };
		expectRejected(await deliver(old));
		expectRejected(await deliver({ ...old, nodeId: freshNodeId() }));
		expectAccepted(await deliver({ ...old, signWith: ROTATED_SECRET_DUMMY }));
	});

	it('never accepts a secret replaced in the credential, whatever delivery arrives first', async () => {
		const nodeId = freshNodeId();
		const now = jest.spyOn(Date, 'now');
		now.mockReturnValue(T0);
		expectAccepted(await deliver({ body, nodeId, webhookSecret: OLD_SECRET_DUMMY }));

		// The user replaced the secret in the credential; the node cannot know when.
		now.mockReturnValue(T0 + MINUTE);
		const afterChange = { body, nodeId, webhookSecret: SECRET_DUMMY };
		expectRejected(await deliver({ ...afterChange, signWith: OLD_SECRET_DUMMY }));
		expectAccepted(await deliver(afterChange));
		expectRejected(await deliver({ ...afterChange, signWith: OLD_SECRET_DUMMY }));
		now.mockReturnValue(T0 + 2 * MINUTE);
		expectRejected(await deliver({ ...afterChange, signWith: OLD_SECRET_DUMMY }));
	});

	it('accepts the Previous Webhook Secret while the user keeps it in the credential, and not after', async () => {
		const nodeId = freshNodeId();
		const now = jest.spyOn(Date, 'now');
		const settling = {
			body,
			nodeId,
			webhookSecret: SECRET_DUMMY,
			previousWebhookSecret: ` ${OLD_SECRET_DUMMY}\n`,
			signWith: OLD_SECRET_DUMMY,
		};
		now.mockReturnValue(T0);
		expectAccepted(await deliver(settling));
		// No window of its own: it holds exactly as long as the field is filled.
		now.mockReturnValue(T0 + 48 * 60 * MINUTE);
		expectAccepted(await deliver(settling));
		expectAccepted(await deliver({ ...settling, signWith: SECRET_DUMMY }));

		// The trigger keeps the credential's secrets in memory for at most SECRET_MAX_AGE_MS:
		// a cleared Previous Webhook Secret is refused once that bound has passed.
		const cleared = { ...settling, previousWebhookSecret: '' };
		now.mockReturnValue(T0 + 48 * 60 * MINUTE + SECRET_MAX_AGE_MS);
		expectRejected(await deliver(cleared));
		expectRejected(await deliver({ ...cleared, previousWebhookSecret: undefined }));
		expectAccepted(await deliver({ ...cleared, signWith: SECRET_DUMMY }));
	});

	it('does not turn an empty Previous Webhook Secret into an accepted empty key', async () => {
		expectRejected(
			await deliver({
				body,
				webhookSecret: SECRET_DUMMY,
				previousWebhookSecret: '  ',
				signWith: '',
			}),
		);
	});

	it('accepts the empty key as the previous secret only with the option', async () => {
		jest.spyOn(Date, 'now').mockReturnValue(T0 + MINUTE);
		const fromEmpty = {
			rotatedSecret: {
				current: ROTATED_SECRET_DUMMY,
				previous: '',
				rotatedAt: T0,
				credentialFingerprint: fingerprint(''),
			},
		};
		const emptySigned = { body, webhookSecret: '', signWith: '' };
		expectRejected(await deliver({ ...emptySigned, staticData: fromEmpty }));
		expectAccepted(
			await deliver({
				...emptySigned,
				staticData: fromEmpty,
				parameters: { options: { allowEmptyKey: true } },
			}),
		);
	});
});
