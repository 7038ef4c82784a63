// Outside read r22-data (issue 50), the free-text rules (fixer dfix31).
// F4: a CJK unit right after a PIN/CVV's digits that starts the next word (`4821 次日生效`,
//     `739 个人专用`, `482193 年底前有效`) let the digits through as a quantity.
// F5: Russian `PIN-код 482193` near an address word was taken for India's postal "PIN code".
// F6: a password or token value was hidden only up to a `&` or a `+` (`[hidden]&9Lm`,
//     `[hidden]+Ef56==`), also in a link's query.
// F7: a multipart part named by a bracketed path (`payment[card][cvv]`) or a secret's name
//     (`password`, `api_key`) kept its value.
// F8: the model's link rule missed a segment holding `:` (a Telegram bot token), a matrix
//     parameter (`;jsessionid=…`) and the value after `/reset_password/`, `/resetPassword/`.
// F9: the glued number sign (`PIN#4821`) worked for the English words only.
// F10: `PIN:`/`CVV:`, three blank lines, then digits: still masked (three blank lines part a
//     label from its value).
import fc from 'fast-check';

import { gateJson, gateText, maskForModel } from '../../nodes/shared/gate';

const RUNS = 200;

function shown(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'user').comment);
}
function shownToModel(text: string): string {
	return String(gateJson(undefined, { comment: text }, 'model').comment);
}
/** Every door a free text passes: an item's field for the user and the model, an error's text. */
function everywhere(text: string): string[] {
	return [
		shown(text),
		shownToModel(text),
		gateText(undefined, text, 'user'),
		gateText(undefined, text, 'model'),
	];
}
/** Every door a free text passes, for the user only (the model also loses long numbers). */
function forUser(text: string): string[] {
	return [shown(text), gateText(undefined, text, 'user')];
}

/** Words a CJK unit character starts (the unit is their first character): no unit then. */
const HAN_WORD = fc.constantFrom(
	'日生效',
	'人专用',
	'底前有效',
	'数已用完',
	'贴在卡上',
	'旦生效',
	'事项',
	'价格',
	'份',
	'度报告',
);

describe('F4: a CJK unit that starts the next word is no unit', () => {
	it.each([
		['新密码：4821 次日生效', '4821'],
		['卡验证码 739 个人专用，请勿泄露', '739'],
		['您的新密码 482193 年底前有效', '482193'],
		['安全码 739 张贴在卡背面', '739'],
		['交易密码：4821次日生效', '4821'],
		['密碼 4821 個人使用', '4821'],
		['支付密码 4821 件事', '4821'],
		['密码 4821 元旦后生效', '4821'],
		// Spaces between the unit and the next word: still a word, not a unit.
		['密码 4821 次 日生效', '4821'],
	])('%j hides %s everywhere', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it.each([
		'密码错误 3 次，卡已锁定 2026 年',
		'支付密码 2025年到期',
		'支付密码 2025年12月到期',
		'安全码 300元',
		'安全码 300元。',
		'密码 1500 元 (fee)',
		'密码 2026 年',
		'卡验证码 739 个）',
		'密码 4821 次, then locked',
		'密码 1500円です',
		// The quantity goes on after the unit (QUANTITY_GOES_ON), or `年` after a year.
		'密码 4821 次后锁定',
		'卡验证码 3 个月内有效',
		'密码 2026 年底前有效',
	])(
		'%j comes out exact (a unit ends the number: end, punctuation, a bracket, or no Han after it)',
		(text) => {
			for (const out of forUser(text)) expect(out).toBe(text);
		},
	);

	it('generated: a PIN/CVV word, its digits, a unit glued to the next Han word: the digits never shown', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('密码', '新密码：', '卡验证码 ', '安全码：', '密碼 ', '交易密码是'),
				fc.integer({ min: 4821, max: 9999 }).map(String),
				fc.constantFrom('', ' '),
				fc.constantFrom('年', '元', '円', '个', '個', '张', '張', '件', '次'),
				fc.constantFrom('', ' ', '  '),
				HAN_WORD,
				(word, digits, gap, unit, space, next) => {
					const text = `${word}${/[\s：是]$/u.test(word) ? '' : ' '}${digits}${gap}${unit}${space}${next}`;
					return everywhere(text).every((out) => !out.includes(digits));
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: the same unit before an end, a punctuation mark, a bracket or a Latin word: kept exact', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('密码 ', '卡验证码 ', '安全码：', '密碼 '),
				fc.integer({ min: 4821, max: 9999 }).map(String),
				fc.constantFrom('', ' '),
				fc.constantFrom('年', '元', '円', '个', '個', '张', '張', '件', '次'),
				fc.constantFrom('', '。', '，', '.', ',', '）', ')', '」', '!', ' (fee)', ' total', '\n'),
				(word, digits, gap, unit, after) => {
					const text = `${word}${digits}${gap}${unit}${after}`;
					return forUser(text).every((out) => out === text);
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F5: only the English PIN words make a postal code', () => {
	it.each([
		['Адрес доставки: ул. Ленина 5. PIN-код 482193', '482193'],
		['Доставка курьером по адресу ул. Ленина 5, PIN-код: 482193', '482193'],
		['Deliver to: 12 MG Road, Bengaluru, PIN-код 560001', '560001'],
		['Deliver to: 12 MG Road, Bengaluru, PIN код 560001', '560001'],
		['Адрес: ул. Ленина 5, Pin-Код - 482193', '482193'],
		['Адрес доставки: ул. Ленина 5. ПИН-код 482193', '482193'],
		// A CSV whose PIN column is named in another language: a card's PIN column.
		['city,PIN-код\nBengaluru,560001', '560001'],
	])('%j hides %s everywhere', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it.each([
		'Deliver to: 12 MG Road, Bengaluru, PIN code 560001',
		'Ship to: 4 Park Street, Kolkata. PIN: 700016',
		'Address: Flat 3, Sector 5, Noida, Pincode - 201301',
		'Адрес доставки: MG Road, Bengaluru, PIN 560001',
		'Deliver to: 12 MG Road, Bengaluru, PIN-code 560001',
		'Deliver to: 12 MG Road, Bengaluru, PIN code no. 560001',
		'order,city,pincode,qty\n12345,Bengaluru,560001,2',
	])('%j (an English form) stays exact for the user', (text) => {
		for (const out of forUser(text)) expect(out).toBe(text);
	});

	it('generated: an address, a PIN word spelled in Cyrillic or mixed, six digits: hidden', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(
					'Адрес доставки: ул. Ленина 5. ',
					'Доставка по адресу ул. Мира 3, ',
					'Deliver to: 12 MG Road, Bengaluru, ',
					'Shipping address: 7 Nehru Nagar, Jaipur, ',
				),
				fc.constantFrom(
					'PIN-код',
					'PIN код',
					'Pin-код',
					'PIN-Код',
					'ПИН-код',
					'ПИН',
					'пин-код',
					'PINкод',
				),
				fc.constantFrom(' ', ': ', ' - '),
				fc.integer({ min: 100000, max: 999999 }).map(String),
				(address, word, gap, digits) => {
					const text = `${address}${word}${gap}${digits}`;
					return everywhere(text).every((out) => !out.includes(digits));
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F6: a password or token value runs to white space, a quote, or the next pair', () => {
	it.each([
		['Member created. Your new password: 4Gh*7Jk&9Lm', ['4Gh*7Jk', '&9Lm', '9Lm']],
		['Session expired, token: Ab12/Cd34+Ef56==', ['Ab12/Cd34', '+Ef56==', 'Ef56']],
		['see https://hooks.example.com/cb?api_key=Ab12/Cd34+Ef56== now', ['Ab12/Cd34', 'Ef56']],
		['password=Tr0ub4dor&3x', ['Tr0ub4dor', '&3x']],
		['{"password":"a1&b2+c3=d4"}', ['a1&b2', 'b2+c3', 'c3=d4']],
		['api_key: k9Xf+Q2mL&p7Rz', ['k9Xf', 'Q2mL', 'p7Rz']],
		['Set token=Zx9+Qw3/Er7== for the next call', ['Zx9', 'Qw3', 'Er7']],
	])('%j hides every piece of the value', (text, pieces) => {
		for (const out of everywhere(text))
			for (const piece of pieces) expect(out).not.toContain(piece);
	});

	it.each([
		// The next `name=` pair after a `&` is not the value's.
		['password=abc123&user=bob', 'password=[hidden]&user=bob'],
		[
			'https://hooks.example.com/cb?token=Qw3rty12345&orderId=ORD-2026-0042',
			'https://hooks.example.com/cb?token=[hidden]&orderId=ORD-2026-0042',
		],
		// A value ends at white space.
		['token: Ab12+Cd34 expired at noon', 'token: [hidden] expired at noon'],
	])('%j comes out as %j for the user', (text, expected) => {
		for (const out of forUser(text)) expect(out).toBe(expected);
	});

	it('generated: a value with `&`, `+`, `=` or `/` inside: no piece of it shown', () => {
		const piece = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{3,7}$/);
		fc.assert(
			fc.property(
				fc.constantFrom('password', 'Password', 'token', 'api_key', 'secret', 'access_token'),
				fc.constantFrom(': ', '=', ' = ', '":"'),
				piece,
				fc.constantFrom('&', '+', '/', '=', '&&', '+/'),
				piece,
				fc.constantFrom('', '==', '='),
				fc.constantFrom('', ' rest', '"}', '\nnext line'),
				(name, separator, head, join, tail, padding, after) => {
					fc.pre(!/^[a-z]+$/.test(tail) || tail.length > 3);
					const text = `${separator.startsWith('"') ? '{"' : 'Note: '}${name}${separator}${head}${join}${tail}${padding}${after}`;
					return everywhere(text).every((out) => !out.includes(tail) && !out.includes(head));
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: in a link, the secret value goes to the next `&name=` and every other pair stays', () => {
		const piece = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{3,7}$/);
		fc.assert(
			fc.property(
				fc.constantFrom('token', 'api_key', 'password', 'sig', 'code'),
				piece,
				fc.constantFrom('+', '/', '%2B', '+/'),
				piece,
				fc.constantFrom('', '==', '='),
				(name, head, join, tail, padding) => {
					const link = `https://hooks.example.com/cb?${name}=${head}${join}${tail}${padding}&orderId=ORD-2026-0042`;
					return forUser(`see ${link} now`).every(
						(out) =>
							!out.includes(tail) &&
							!out.includes(head) &&
							out.includes('&orderId=ORD-2026-0042 now'),
					);
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F7: a multipart part is masked by its name as a field is', () => {
	const part = (name: string, value: string) =>
		`--XyZb\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
	const echo = (parts: string) => `Bad Request: could not parse form\r\n${parts}--XyZb--\r\n`;

	it.each([
		['payment[card][cvv]', '739'],
		['card[pin]', '4821'],
		['cards[0][cvc]', '5821'],
		['password', 'Tr0ub4dor&3x'],
		['api_key', 'k9XfQ2mLp7RzT4vB'],
		['user[password]', 'Qw3rty!2026'],
		['X-API-Key', 'k9XfQ2mLp7RzT4vB'],
		['member.secret', 'S3cr3tValue2026'],
	])('a part named %j hides %j everywhere', (name, value) => {
		for (const out of everywhere(echo(part(name, value)))) expect(out).not.toContain(value);
	});

	it('the RFC 5987 form `name*=` too', () => {
		const text = `--XyZb\r\nContent-Disposition: form-data; name*=UTF-8''cvv\r\n\r\n739\r\n--XyZb--`;
		for (const out of everywhere(text)) expect(out).not.toContain('739');
	});

	it('only the value goes: the part, its name and the other parts stay as written', () => {
		const text = echo(
			part('payment[card][cvv]', '739') + part('password', 'Tr0ub4dor&3x') + part('amount', '1500'),
		);
		expect(shown(text)).toBe(
			echo(
				part('payment[card][cvv]', '•••') + part('password', '[hidden]') + part('amount', '1500'),
			),
		);
	});

	it.each([
		['amount', '1500'],
		['orderId', 'ORD-2026-0042'],
		['payment[card][cvv_checked]', 'true'],
		['card[pin_tries]', '3'],
		['password', 'ok'],
		['comment', 'see you'],
	])('a part named %j keeps %j', (name, value) => {
		const text = echo(part(name, value));
		for (const out of forUser(text)) expect(out).toBe(text);
	});

	it('generated: a secret named by the last part of a bracketed or dotted path: its value never shown', () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom('payment', 'card', 'data', 'user', 'fields', '0', '12'), {
					maxLength: 3,
				}),
				fc.constantFrom('cvv', 'cvc', 'pin', 'password', 'api_key', 'apiKey', 'secret', 'token'),
				fc.boolean(),
				fc.constantFrom('"', "'", ''),
				(path, last, dotted, quote) => {
					const name =
						path.length === 0
							? last
							: dotted
								? [...path, last].join('.')
								: `${path[0]}${[...path.slice(1), last].map((p) => `[${p}]`).join('')}`;
					const value = /^(?:cvv|cvc)$/.test(last)
						? '739'
						: /^pin$/.test(last)
							? '4821'
							: 'Zq7Kp2Lm9Xw4';
					const text = `--B\r\nContent-Disposition: form-data; name=${quote}${name}${quote}\r\n\r\n${value}\r\n--B--`;
					return everywhere(text).every((out) => !out.includes(value));
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F8: the model link rule reads `:` in a segment, matrix parameters and compound path words', () => {
	const TOKEN_LINKS: [string, string[]][] = [
		[
			'https://api.telegram.org/bot7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
			['AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw', '7012345678'],
		],
		[
			'https://hooks.example.com/in/AAHdqTcvCH1vGW:JxfSeofSAs0K5PALDsaw',
			['AAHdqTcvCH1vGW', 'JxfSeofSAs0K5PALDsaw'],
		],
		[
			'https://hooks.example.com/receive;jsessionid=Q7xKp2LmZ9rT4vBw8NcY3hJd',
			['Q7xKp2LmZ9rT4vBw8NcY3hJd'],
		],
		['https://hooks.example.com/a;v=1;token=K7Q2/next', ['K7Q2']],
		['https://hooks.example.com/reset_password/abc12345xyz', ['abc12345xyz']],
		['https://hooks.example.com/password_reset/abc12345xyz', ['abc12345xyz']],
		['https://hooks.example.com/resetPassword/abc12345xyz', ['abc12345xyz']],
		['https://hooks.example.com/Reset-Password/abc12345xyz', ['abc12345xyz']],
		['https://hooks.example.com/auth/magic_link/K7Q2', ['K7Q2']],
		['https://hooks.example.com/api/access_token/k3yq9x2m7p', ['k3yq9x2m7p']],
	];

	it.each(TOKEN_LINKS)(
		'%s: the model gets no token, as a link field and in a text',
		(link, secrets) => {
			const field = JSON.stringify(maskForModel({ webhookUrl: link }, []));
			const text = JSON.stringify(maskForModel({ comment: `see ${link} now` }, []));
			for (const out of [field, text])
				for (const secret of secrets) expect(out).not.toContain(secret);
		},
	);

	it.each([
		'https://shop.example.com/orders/ORD-2026-0042/hook',
		'https://shop.example.com/orders;v=2/ORD-2026-0042',
		'https://shop.example.com/at/10:30/orders',
		'https://shop.example.com/orders/ORD-2026:0042',
		'https://cabinet.example.com/password_reset/done',
		'https://shop.example.com/orders/confirmed/ORD-2026-0042',
		'https://shop.example.com/authors/ORD-2026-0042',
		'https://shop.example.com/barcodes/ORD-2026-0042',
	])('%s reaches the model exactly', (link) => {
		expect(maskForModel({ webhookUrl: link }, [])).toEqual({ webhookUrl: link });
		const comment = `see ${link} now`;
		expect(maskForModel({ comment }, [])).toEqual({ comment });
	});

	it('a matrix parameter named a session is hidden from the user too, as a query parameter is', () => {
		const text = 'see https://hooks.example.com/receive;jsessionid=Q7xKp2LmZ9rT4vBw8NcY3hJd now';
		for (const out of forUser(text)) {
			expect(out).toBe('see https://hooks.example.com/receive;jsessionid=[hidden] now');
		}
	});

	it('generated: a secret path word in any case and with any separator: the next segment is hidden', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(
					['reset', 'password'],
					['password', 'reset'],
					['access', 'token'],
					['magic', 'link'],
					['verify', 'email'],
					['api', 'key'],
				),
				fc.constantFrom('_', '-', '', '.', 'camel'),
				fc.boolean(),
				fc.stringMatching(/^[a-z][a-z0-9]{5,9}[0-9]$/),
				(words, separator, upper, token) => {
					const word =
						separator === 'camel'
							? words[0] +
								words
									.slice(1)
									.map((w) => w[0].toUpperCase() + w.slice(1))
									.join('')
							: words.join(separator);
					const link = `https://hooks.example.com/${upper ? word.toUpperCase() : word}/${token}`;
					return !JSON.stringify(maskForModel({ webhookUrl: link }, [])).includes(token);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('generated: a segment split at `:` with a random part: the part never reaches the model', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('bot', 'in', 'hook', ''),
				fc.integer({ min: 100000, max: 9999999999 }),
				fc.stringMatching(/^[A-Za-z0-9]{20,30}[_-]?[A-Za-z0-9]{4,10}$/),
				(head, id, token) => {
					fc.pre(/[A-Z]/.test(token) && /[a-z]/.test(token));
					const link = `https://api.example.org/${head}${id}:${token}/send`;
					const out = JSON.stringify(maskForModel({ comment: `call ${link}` }, []));
					return !out.includes(token);
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F9: every PIN/CVV word takes the glued number sign', () => {
	it.each([
		['Votre NIP#4821 a été envoyé', '4821'],
		['Ihre PIN-Nummer#4821 wurde gesendet', '4821'],
		['新密码#4821 已发送', '4821'],
		['卡验证码#739 已发送', '739'],
		['Geheimzahl#4821', '4821'],
		['Sicherheitscode#739', '739'],
		['código de seguridad#739', '739'],
		['安全码＃739', '739'],
		['ПИН#4821', '4821'],
	])('%j hides %s everywhere', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it('only the digits go', () => {
		expect(shown('Geheimzahl#4821')).toBe('Geheimzahl#••••');
		expect(shown('新密码#4821 已发送')).toBe('新密码#•••• 已发送');
	});

	it.each(['nip#4821 of the bottle', 'Geheimzahl #4821 order failed', '密码#2025年到期'])(
		'%j stays as written',
		(text) => {
			for (const out of forUser(text)) expect(out).toBe(text);
		},
	);

	it('generated: each PIN/CVV word glued to `#` and digits: the digits never shown', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(
					'NIP',
					'PIN-Nummer',
					'PIN-Nr.',
					'Geheimzahl',
					'Geheimnummer',
					'Kartenprüfnummer',
					'Sicherheitscode',
					'código de seguridad',
					'código de verificación',
					'code confidentiel',
					'cryptogramme visuel',
					'密码',
					'新密码',
					'密碼',
					'安全码',
					'卡验证码',
					'PIN',
					'CVV',
					'ПИН',
				),
				fc.constantFrom('#', '#: ', '# '),
				fc.integer({ min: 4821, max: 9999 }).map(String),
				fc.constantFrom('', ' sent', '.', ' 已发送'),
				(word, sign, digits, after) => {
					const text = `${word}${sign}${digits}${after}`;
					return everywhere(text).every((out) => !out.includes(digits));
				},
			),
			{ numRuns: RUNS },
		);
	});
});

describe('F10: three blank lines part a label from its value, also after a colon', () => {
	it.each([
		'CVV:\n\n\n\n739',
		'PIN:\n\n\n\n4821',
		'CVV:\r\n\r\n\r\n\r\n739',
		'PIN is\n\n\n\n4821',
		'Your PIN:\n \n\t\n\n4821',
		'Geheimzahl:\n\n\n\n4821',
		'密码：\n\n\n\n4821',
	])('%j stays as written', (text) => {
		for (const out of forUser(text)) expect(out).toBe(text);
	});

	it.each([
		['CVV:\n\n\n739', '739'],
		['PIN:\n4821', '4821'],
		['PIN is\n\n\n4821', '4821'],
		['CVV:\r\n\r\n\r\n739', '739'],
	])('%j (two blank lines or fewer) hides %s', (text, secret) => {
		for (const out of everywhere(text)) expect(out).not.toContain(secret);
	});

	it('generated: a label, a colon or `is`, n line breaks, digits: hidden up to three breaks, kept from four', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('PIN', 'CVV', 'Card PIN', 'CVC2', 'PIN code', 'ПИН', 'security code'),
				fc.constantFrom(':', ' is', ' =', ':'),
				fc.integer({ min: 1, max: 6 }),
				fc.constantFrom('\n', '\r\n', '\n  '),
				fc.integer({ min: 4821, max: 9999 }).map(String),
				(word, separator, breaks, lineEnd, digits) => {
					const text = `${word}${separator}${lineEnd.repeat(breaks)}${digits}`;
					const outs = forUser(text);
					return breaks <= 3
						? outs.every((out) => !out.includes(digits))
						: outs.every((out) => out === text);
				},
			),
			{ numRuns: RUNS },
		);
	});
});
