// Generated mode, data dimensions (issue 50): what the interface document leaves open about the
// data itself, drawn from a seed like every other open choice (generated.mjs).
//
//   extra fields:     secret-bearing records (a member, a card's sensitive data, the company
//                     profile, an invite) carry fields the document does not show, holding
//                     secrets: `memberKey`, `keys[].value`, `cardPin` (also as a JSON number)…;
//   numbers:          identifiers beyond 2^53 written as JSON numbers (two deposits whose IDs a
//                     double cannot tell apart), and numbers where text is usual (a requisite,
//                     an externalId);
//   escaped secrets:  a known secret quoted in an error's details the way a JSON encoder writes
//                     it (`\/`, `\u002f`, every character escaped, escaped twice), or its bytes
//                     re-encoded (UTF-16LE base64, UTF-16BE hex, quoted-printable);
//   states again:     a payout walk that enters every payout state more than once (taken,
//                     released, taken again), each change delivered, some deliveries retried;
//   key regeneration: the company's API key regenerated at a drawn point of the stream;
//   closed nesting:   a secret nested under a declared field of a closed record (`status.grant`,
//                     `role.grant`, `permissions[].grant`) or under a name the package uses for
//                     its own fields (`description`, `hint`, `paymentReference`);
//   PIN names:        a card's PIN as `cardPin`, `pinCode` or `atm_pin`, text or a JSON number;
//   new key's field:  the answer of Login / Regenerate API Key / Invite Accept does not show
//                     its field names: the key at the top (`apiKey`, `key`), nested
//                     (`company.apiKey`), as an object (`apiKey.value`), or under no expected
//                     name at all, beside a session token, a webhook secret and an echoed password;
//   visit times:      a revisited state with its first takenAt / completedAt kept, or moved
//                     (outside read 2), every later state carrying them as a record does;
//   polls apart:      the poll trigger reading after every step or every second one, so a state
//                     can be left and entered again between two polls;
//   listing omits:    one listing answer that leaves the payout out, then shows it unchanged;
//   decimals:         amounts written plainly, with trailing zeros (1500.50), or with more
//                     digits than a double holds (1500.12345678901234567);
//   text secrets:     a PIN, a CVV, a key or a card number written in free text (a body that
//                     is not JSON, a webhook's comment) in one of TEXT_SECRET_FORMS, beside
//                     ordinary text that must stay (outside read r5-data, finding 1);
//   cut quotes:       an error body quoted at 300 characters whose cut falls inside a secret,
//                     as text and as a JSON balance answer (findings 2 and 3);
//   orders, disputes again: an order taken, released and taken again, a dispute submitted and
//                     in review twice, with or without an `updatedAt` (choice repeatTransitions:
//                     the document shows none on either), through both triggers (findings 4, 5);
//   deposits again:   a company or user-wallet deposit that fails AML, is checked again and
//                     fails again; deposit.aml_failed shows no `updatedAt` (outside read r7-data);
//   names by words:   a card's PIN-attempt counter (`pinTriesLeft`), a record's key holding a
//                     date, the record's own ID or a unix time (`orderKey`, `periodKey`, `key`),
//                     a PIN or CVV as a pair named by `kind`, `attribute`, `param`… (r16-data).
//
// Everything here is a pure function of the seed: the same seed gives the same records, texts
// and walks, so a failing seed replays (DATA_SEEDS=<n>, test/sandbox/data-invariants.test.mjs).
import { drawStream } from './generated.mjs';

/** The payout states the document lists. */
export const PAYOUT_STATES = Object.freeze([
	'pending',
	'waiting_trader',
	'in_progress',
	'success',
	'fail',
]);

/** How a JSON encoder may write a secret's characters inside a string. */
export const ESCAPE_FORMS = Object.freeze([
	'slash',
	'u002f',
	'U002F',
	'every',
	'twice',
	// Outside read r19-data, finding 13: the key's bytes re-encoded, not escaped.
	'utf16leBase64',
	'utf16beHex',
	'quotedPrintable',
]);
/** The escape forms that encode the secret's bytes: the encoded text is itself a secret's form. */
export const ENCODED_FORMS = Object.freeze(['utf16leBase64', 'utf16beHex', 'quotedPrintable']);

/**
 * Field names no record of the model declares, that a service may still fill with a secret, by
 * the record that carries them. Their values are drawn secrets (or numbers, for a PIN).
 */
export const EXTRA_SECRET_FIELDS = Object.freeze({
	member: ['memberKey', 'accessMaterial', 'recoveryCode', 'legacyCredentialValue', 'hmacSeed'],
	cardSensitiveData: [
		'cardPin',
		'pinBlock',
		'track2',
		'issuerRef3ds',
		'activationCode',
		'pinCode',
		'atm_pin',
	],
	companyProfile: ['signingMaterial', 'ownerRecovery', 'sandboxSeed', 'apiKeyHistory'],
	invite: ['joinCode', 'magicValue', 'otpSeed', 'inviteCodeRaw'],
});

/** The extra card fields that hold a PIN (a JSON number when the seed draws one). */
const PIN_NAMES = new Set(['cardPin', 'pinCode', 'atm_pin']);

/**
 * Undeclared data a closed record may carry where the document shows a field, by the record: a
 * secret nested under a declared field (`status: { grant }`), or under a name the package uses
 * for its own output fields (`description`, `hint`, `paymentReference`).
 */
export const CLOSED_NESTINGS = Object.freeze({
	member: [
		(v) => ({ status: { since: '2026-11-01', grant: v } }),
		(v) => ({ role: { name: 'admin', grant: v } }),
		(v) => ({ name: { first: 'Ann', recovery: v } }),
		(v) => ({ description: v }),
		(v) => ({ changeKey: v }),
	],
	companyProfile: [
		(v) => ({ createdAt: { at: '2026-11-01', signingKeyMaterial: v } }),
		(v) => ({ hint: v }),
		(v) => ({ idempotencyKey: v }),
	],
	invite: [
		(v) => ({ role: { name: 'viewer', grant: v } }),
		(v) => ({ permissions: [{ name: 'members.read', grant: v }] }),
		(v) => ({ paymentReference: v }),
		(v) => ({ source: v }),
	],
});

/** For each closed record, one undeclared nesting (or none) of the seed, with its secret. */
export function closedNestings(seed) {
	const r = drawStream(seed, 'data:closedNesting');
	const out = {};
	for (const [record, makers] of Object.entries(CLOSED_NESTINGS)) {
		const pick = r.int(0, makers.length);
		const secret = drawSecret(r, '', 22);
		out[record] =
			pick === makers.length ? { fields: {} } : { fields: makers[pick](secret), secret };
	}
	return out;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random secret of `length` characters, with a `/` and a `+` inside (escape material). */
export function drawSecret(r, prefix = 'sk_live_', length = 26) {
	let body = '';
	for (let i = 0; i < length; i++) body += ALPHABET[Math.floor(r.next() * ALPHABET.length)];
	const at = 4 + (length > 12 ? r.int(0, length - 12) : 0);
	return `${prefix}${body.slice(0, at)}/${body.slice(at, at + 6)}+${body.slice(at + 6)}`;
}

/** The data dimensions of one seed. */
/**
 * What a deposit's `token` holds (not shown; choice `depositToken`): a code, or the token
 * contract's address (the public USDT TRC-20 contract), which is no secret (outside read r13-data,
 * finding 2).
 */
export const DEPOSIT_TOKENS = ['USDT-TRC20', 'usdt', 'USDT', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'];

export function drawDataDimensions(seed) {
	const r = drawStream(seed, 'data');
	return {
		extraFields: r.int(1, 3),
		numericPin: r.chance(0.5),
		nestedKeys: r.chance(0.6),
		bigIds: r.chance(0.8),
		numericRequisite: r.chance(0.6),
		numericExternalId: r.chance(0.4),
		escapeForm: r.pick(ESCAPE_FORMS),
		visits: r.int(2, 3),
		payoutTimes: r.pick(['updatedAt', 'none', 'mixed']),
		retries: r.int(0, 3),
		regenerateAt: r.next(),
		// Outside read 2 (drawn after the others, so earlier dimensions keep their values).
		revisitTimes: r.pick(['moved', 'kept']),
		pollEvery: r.pick([1, 2]),
		omitOnce: r.chance(0.5),
		omitAt: r.next(),
		decimals: r.pick(DECIMAL_FORMS),
		// Outside read r5-data (drawn after the others, so earlier dimensions keep their values).
		textSecretForm: r.pick(TEXT_SECRET_FORMS),
		cutSecret: r.pick(CUT_SECRETS),
		cutInside: r.next(),
		orderTimes: r.pick(['none', 'updatedAt']),
		disputeTimes: r.pick(['none', 'updatedAt']),
		// Outside read r7-data (drawn after the others, so earlier dimensions keep their values).
		depositWallet: r.pick(['company', 'user']),
	};
}

/** How a service's free text may write a secret (outside read r5-data, finding 1). */
export const TEXT_SECRET_FORMS = Object.freeze([
	'pinColon',
	'pinEquals',
	'pinWords',
	'cvvWords',
	'cvv2',
	'keyWords',
	'liveKey',
	'apiKeyEquals',
	'bearer',
	'cardNumber',
	// Outside read r8-data: secrets written in words, and card numbers in loose forms.
	'pinSentence',
	'pinRussianSentence',
	'cvvSentence',
	'keySentence',
	'passwordSentence',
	'cardGlued',
	'cardEmDash',
	'cardPairs',
	// Outside read r20-data (fixer dfix26): other languages' and layouts' words, and an Indian
	// postal code in an address beside them, which is ordinary text and must stay.
	'pinNummer',
	'pinNip',
	'cvvGluedSign',
	'pinBlankLines',
	'cvvTraditional',
	'postalBeside',
]);

/** The secrets an error quote may cut inside (findings 2 and 3). */
export const CUT_SECRETS = Object.freeze(['webhookSecret', 'liveKey', 'pin', 'cardNumber']);

/** A random key part of letters (both cases) and digits, as a service's keys are written. */
function drawKeyPart(r, length) {
	let out = '';
	for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(r.next() * ALPHABET.length)];
	return `${out.slice(0, -2)}7${out.slice(-1)}`;
}

/** `length` lower-case hex digits. */
function drawHex(r, length) {
	let out = '';
	for (let i = 0; i < length; i++) out += '0123456789abcdef'[r.int(0, 15)];
	return out;
}

/** A card number (16 digits) that passes the card checksum. */
function drawCardNumber(r) {
	const digits = `5${String(r.int(10_000_000, 99_999_999))}${String(r.int(100_000, 999_999))}`;
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let digit = Number(digits[digits.length - 1 - i]);
		if (i % 2 === 0) digit *= 2;
		sum += digit > 9 ? digit - 9 : digit;
	}
	return `${digits}${(10 - (sum % 10)) % 10}`;
}

/**
 * A free text of the service quoting a secret in `form`, beside ordinary text (an order
 * reference, an amount) that must come through as written.
 */
export function textSecret(r, form) {
	const pin = String(r.int(100_000, 999_999));
	// Not 400 (the HTTP status an error shows) nor any number the bodies around it write.
	const cvv = String(r.int(601, 899));
	// Random in both cases, or lower-case hex (`mk_live_9f8e7d6c…`), which no case mix tells.
	const key = `mk_live_${r.chance(0.5) ? drawKeyPart(r, 32) : drawHex(r, 32)}`;
	const hex = drawHex(r, 32);
	const password = `Qw${drawKeyPart(r, 10)}`;
	const card = drawCardNumber(r);
	const texts = {
		pinColon: [`PIN: ${pin}`, pin],
		pinEquals: [`pin=${pin}`, pin],
		pinWords: [`card PIN ${pin} rejected by bank`, pin],
		cvvWords: [`cvv ${cvv} for card`, cvv],
		cvv2: [`CVV2: ${cvv}`, cvv],
		keyWords: [`member key ${key} revoked`, key],
		liveKey: [`key ${key} is not allowed`, key],
		apiKeyEquals: [`api_key=${key}`, key],
		bearer: [`Authorization: Bearer ${key}`, key],
		cardNumber: [`card ${drawCardNumber(r)} declined`, null],
		pinSentence: [`the PIN you need is ${pin}`, pin],
		pinRussianSentence: [`ПИН-код вашей карты: ${pin}`, pin],
		cvvSentence: [`security code of the card is ${cvv}`, cvv],
		keySentence: [`Your new API key is ${hex}`, hex],
		passwordSentence: [`password for login is ${password}`, password],
		cardGlued: [`card${card} declined`, card],
		cardEmDash: [`card ${card.match(/\d{4}/g).join('—')} declined`, null],
		cardPairs: [`card ${card.match(/\d{2}/g).join(' ')} declined`, null],
		pinNummer: [`PIN-Nr. ${pin} gesperrt`, pin],
		pinNip: [`Votre NIP est ${pin}`, pin],
		cvvGluedSign: [`CVV#${cvv} declined`, cvv],
		pinBlankLines: [`\nPIN\n\n${pin}`, pin],
		cvvTraditional: [`安全碼 ${cvv}`, cvv],
		postalBeside: [`PIN-Nummer ${pin}`, pin],
	};
	const [phrase, secret] = texts[form];
	// An Indian postal code (six digits after `PIN code` in an address) is ordinary text; not
	// drawn (the draws after this one keep their values), and never the PIN's digits.
	const postalCode = pin.startsWith('560') ? '700016' : '560001';
	const postal =
		form === 'postalBeside' ? `, deliver to 12 MG Road, Bengaluru, PIN code ${postalCode}` : '';
	const ordinary = `order ORD-${r.int(1000, 9999)} amount 1500.50 USDT${postal}`;
	return {
		text: `${ordinary}: ${phrase}`,
		secret: secret ?? phrase.slice(phrase.indexOf(' ') + 1, phrase.lastIndexOf(' ')),
		ordinary,
	};
}

/**
 * A secret an error quotes cut at `limit` characters `inside` characters into it (at least one,
 * never all): as text and as a JSON answer, with the field that holds it and its known prefix.
 */
export function cutQuote(r, kind, insideFraction, limit = 300) {
	const secrets = {
		webhookSecret: ['webhookSecret', `whsec_${drawKeyPart(r, 40)}`, 6],
		liveKey: ['apiKey', `mk_live_${drawKeyPart(r, 36)}`, 8],
		pin: ['pin', String(r.int(100_000, 999_999)), 0],
		cardNumber: ['cardNumberFull', drawCardNumber(r), 0],
	};
	const [name, secret, prefix] = secrets[kind];
	const inside = 1 + Math.floor(insideFraction * (secret.length - 1));
	const head = `upstream error; partial answer: {"cardId":"c1","${name}":"`;
	const text = `${'.'.repeat(limit - head.length - inside)}${head}${secret}","expiry":"12/29"}`;
	const probe = JSON.stringify({ meta: '', [name]: secret });
	const json = {
		meta: 'x'.repeat(limit - probe.indexOf(secret) - inside),
		[name]: secret,
		data: { balance: { usdt: '10.00' } },
	};
	return { name, secret, prefix, inside, text, json };
}

/** How amounts are written: plainly, with trailing zeros, or beyond what a double holds. */
export const DECIMAL_FORMS = Object.freeze(['plain', 'trailingZeros', 'beyondDouble']);

/** The written amountRub and chargedUsdt of one decimal form. */
export function writtenAmounts(form) {
	if (form === 'trailingZeros') return { amountRub: '1500.50', chargedUsdt: '15.750' };
	if (form === 'beyondDouble') {
		return { amountRub: '1500.12345678901234567', chargedUsdt: '15.750000000000000001' };
	}
	return { amountRub: '1500', chargedUsdt: '15.75' };
}

/** A number written as these digits in the JSON text (rawJson), never through a double. */
export class RawNumber {
	constructor(digits) {
		if (!/^-?\d+(\.\d+)?$/.test(digits)) throw new Error(`not a number: ${digits}`);
		this.digits = digits;
	}
}

/** JSON text of `value`, each RawNumber written as its digits. */
export function rawJson(value) {
	if (value instanceof RawNumber) return value.digits;
	if (Array.isArray(value)) return `[${value.map(rawJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		return `{${Object.entries(value)
			.filter(([, v]) => v !== undefined)
			.map(([k, v]) => `${JSON.stringify(k)}:${rawJson(v)}`)
			.join(',')}}`;
	}
	return JSON.stringify(value);
}

/** A secret as an encoder writes it inside a JSON string (the text, after the string is read). */
export function escapedSecret(secret, form) {
	const every = (text) =>
		text.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
	switch (form) {
		case 'slash':
			return secret.replace(/\//g, '\\/');
		case 'u002f':
			return secret.replace(/\//g, '\\u002f');
		case 'U002F':
			return secret.replace(/\//g, '\\u002F');
		case 'every':
			return every(secret);
		case 'twice':
			return secret.replace(/\//g, '\\\\\\/');
		case 'utf16leBase64':
			return Buffer.from(secret, 'utf16le').toString('base64');
		case 'utf16beHex':
			return Buffer.from(secret, 'utf16le').swap16().toString('hex');
		case 'quotedPrintable':
			return [...Buffer.from(secret, 'utf8')]
				.map((byte) => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`)
				.join('');
		default:
			return secret;
	}
}

/** `count` 19-digit IDs beyond 2^53 that a double rounds to fewer values (neighbours). */
export function drawBigIds(r, count) {
	const base = 1790123400012345000n + BigInt(r.int(0, 500)) * 1000n;
	return Array.from({ length: count }, (_, i) => String(base + BigInt(i)));
}

/** A record's extra unknown fields holding secrets, and the secrets they hold. */
export function extraSecretFields(r, record, dims) {
	const names = EXTRA_SECRET_FIELDS[record];
	const fields = {};
	const secrets = [];
	for (let i = 0; i < dims.extraFields; i++) {
		const name = names[(i + r.int(0, names.length - 1)) % names.length];
		if (name in fields) continue;
		if (record === 'cardSensitiveData' && PIN_NAMES.has(name) && dims.numericPin) {
			const pin = r.int(1000, 9999);
			fields[name] = new RawNumber(String(pin));
			secrets.push(String(pin));
			continue;
		}
		const secret = drawSecret(r, '', 20);
		fields[name] = secret;
		secrets.push(secret);
	}
	if (record === 'member' && dims.nestedKeys) {
		const secret = drawSecret(r, 'mk_', 22);
		fields.keys = [{ value: secret, active: true, label: 'primary' }];
		secrets.push(secret);
	}
	return { fields, secrets };
}

/**
 * A walk through the payout states that enters each of them exactly `visits` times, never a state
 * right after itself (taken, released, taken again): drawn step by step among the states left,
 * the one with the most entries left forced when the others could not separate its entries.
 */
export function payoutWalk(r, visits) {
	const left = new Map(PAYOUT_STATES.map((state) => [state, visits]));
	const walk = [];
	let remaining = PAYOUT_STATES.length * visits;
	while (remaining > 0) {
		const last = walk[walk.length - 1];
		const open = [...left].filter(([state, n]) => n > 0 && state !== last);
		const [most, mostLeft] = [...left].sort((a, b) => b[1] - a[1])[0];
		const forced = most !== last && mostLeft > remaining - mostLeft;
		const state = forced ? most : open[Math.floor(r.next() * open.length)][0];
		walk.push(state);
		left.set(state, left.get(state) - 1);
		remaining--;
	}
	return walk;
}
/** Where an answer that hands out a new API key puts it (its field names are not shown). */
export const NEW_KEY_SHAPES = Object.freeze(['top', 'otherName', 'nested', 'valueObject', 'none']);

/**
 * The answer of a call that hands out a new key, in the seed's shape: the key (`key`) and what
 * must stay masked beside it (`others`: a session token, a webhook secret, an echoed password).
 * `path` is where the key stands, null when under no expected name.
 */
export function newKeyAnswer(seed) {
	const r = drawStream(seed, 'data:newKey');
	const shape = r.pick(NEW_KEY_SHAPES);
	const key = drawSecret(r, 'nk_live_', 24);
	const session = drawSecret(r, 'sess_', 24);
	const webhookSecret = `whsec_${Buffer.from(drawSecret(r, '', 24))
		.toString('hex')
		.slice(0, 48)}`;
	const password = drawSecret(r, 'Pw!', 10);
	const others = { accessToken: session, webhookSecret, password };
	const answers = {
		top: { body: { apiKey: key, ...others }, path: 'apiKey' },
		otherName: { body: { key, ...others }, path: 'key' },
		nested: {
			body: { accessToken: session, company: { id: 'c1', apiKey: key, webhookSecret }, password },
			path: 'company.apiKey',
		},
		valueObject: {
			body: { apiKey: { value: key, createdAt: '2026-11-21T12:00:00Z' }, ...others },
			path: 'apiKey.value',
		},
		none: { body: { credentials: { material: key }, ...others }, path: null },
	};
	return { shape, key, secrets: [session, webhookSecret, password], ...answers[shape] };
}

/**
 * One seed's data: the records and streams the invariant test plays through the nodes, with
 * what every output must keep (identifiers) and must never show (secrets).
 */
export function generatedData(seed) {
	const dims = drawDataDimensions(seed);
	const r = drawStream(seed, 'data:records');
	const secrets = [];
	const apiKey = drawSecret(r);
	const newApiKey = drawSecret(r);
	const webhookSecret = `whsec_${Buffer.from(drawSecret(r, '', 24))
		.toString('hex')
		.slice(0, 48)}`;

	const member = extraSecretFields(r, 'member', dims);
	const card = extraSecretFields(r, 'cardSensitiveData', dims);
	const profile = extraSecretFields(r, 'companyProfile', dims);
	const invite = extraSecretFields(r, 'invite', dims);
	for (const part of [member, card, profile, invite]) secrets.push(...part.secrets);
	const memberOwnKey = drawSecret(r, 'mk_live_', 24);
	const cardNumber = `2200${String(r.int(10_000_000, 99_999_999))}${String(r.int(1000, 9999))}`;
	const cvv = String(r.int(100, 999));
	const inviteToken = drawSecret(r, 'inv_', 24);
	secrets.push(memberOwnKey, cardNumber, inviteToken, apiKey, newApiKey, webhookSecret);

	const nestings = closedNestings(seed);
	for (const nesting of Object.values(nestings)) if (nesting.secret) secrets.push(nesting.secret);
	const records = {
		members: [
			{
				userId: `usr_${r.int(1000, 9999)}`,
				email: 'ops@example.com',
				role: 'admin',
				permissions: ['members.read'],
				apiKey: memberOwnKey,
				...member.fields,
				...nestings.member.fields,
			},
		],
		cardSensitive: {
			cardId: `card_${r.int(1000, 9999)}`,
			cardNumberFull: cardNumber,
			cardCvv: cvv,
			expiry: '12/29',
			...card.fields,
		},
		profile: {
			id: 'company-1',
			name: 'Acme',
			webhookUrl: null,
			...profile.fields,
			...nestings.companyProfile.fields,
		},
		invites: [
			{
				id: `inv-id-${r.int(1000, 9999)}`,
				url: `https://cabinet.example.com/invite/${inviteToken}`,
				token: inviteToken,
				status: 'pending',
				permissions: [],
				...invite.fields,
				...nestings.invite.fields,
			},
		],
	};

	// Deposits whose IDs a double cannot tell apart, written as JSON numbers (or as text).
	const depositIds = dims.bigIds
		? drawBigIds(r, 3)
		: [0, 1, 2].map((i) => String(r.int(1000, 9999) * 10 + i));
	const deposits = depositIds.map((id, i) => ({
		event: 'deposit.completed',
		depositId: new RawNumber(id),
		txHash: `0x${String(seed).padStart(4, '0')}${i}abc`,
		amount: 2500 + i,
		token: r.pick(DEPOSIT_TOKENS),
		status: 'completed',
		createdAt: '2026-11-21T12:00:00.000Z',
		updatedAt: `2026-11-21T12:0${i}:00.000Z`,
	}));

	// A payout walk: every state entered `visits` times, each entry delivered (some retried).
	const payoutId = dims.bigIds ? drawBigIds(r, 1)[0] : `po_${seed}`;
	const walk = payoutWalk(r, dims.visits);
	const start = Date.parse('2026-11-21T12:00:00.000Z');
	const requisite = cardNumber.replace(/^2200/, '4000');
	secrets.push(requisite);
	const amounts = writtenAmounts(dims.decimals);
	// The times a record keeps from its visits: the latest ('moved') or the first ('kept').
	const kept = {};
	const transitions = walk.map((status, step) => {
		const at = new Date(start + (step + 1) * 60_000).toISOString();
		const withTime =
			dims.payoutTimes === 'updatedAt' || (dims.payoutTimes === 'mixed' && r.chance(0.5));
		const field =
			status === 'in_progress' ? 'takenAt' : status === 'success' ? 'completedAt' : null;
		if (field && (dims.revisitTimes === 'moved' || kept[field] === undefined)) kept[field] = at;
		return {
			step,
			status,
			deliveryId: `dlv-${seed}-${step}`,
			at,
			body: {
				event: 'payout.status_changed',
				payoutId: dims.bigIds ? new RawNumber(payoutId) : payoutId,
				externalId: dims.numericExternalId ? new RawNumber(String(70_000 + seed)) : `ext-${seed}`,
				status,
				amountRub: new RawNumber(amounts.amountRub),
				chargedUsdt: new RawNumber(amounts.chargedUsdt),
				requisiteType: 'card',
				requisite: dims.numericRequisite ? new RawNumber(requisite) : requisite,
				...kept,
				...(withTime ? { updatedAt: at } : {}),
			},
			retries: r.chance(0.3) ? Math.min(dims.retries, 2) : 0,
		};
	});
	const regenerateAfter = Math.floor(dims.regenerateAt * transitions.length);
	// The poll that finds the payout left out of the listing (-1: none).
	const omitBefore = dims.omitOnce ? 1 + Math.floor(dims.omitAt * (transitions.length - 1)) : -1;

	return {
		seed,
		dims,
		apiKey,
		newApiKey,
		webhookSecret,
		// An encoded form of the key in the error's details is a form of the secret that must not show.
		secrets: [
			...new Set([
				...secrets,
				...(ENCODED_FORMS.includes(dims.escapeForm)
					? [escapedSecret(apiKey, dims.escapeForm)]
					: []),
			]),
		],
		records,
		deposits,
		depositIds,
		payoutId,
		transitions,
		regenerateAfter,
		omitBefore,
		amounts,
		errorDetails: `API key ${escapedSecret(apiKey, dims.escapeForm)} is not valid for this company`,
		// The error body's `details`: the text, and an encoded key also as a field of its own (a
		// field's value is read as a value, not as a free text: r19-data, finding 13).
		errorBodyDetails: ENCODED_FORMS.includes(dims.escapeForm)
			? {
					message: `API key is not valid for this company`,
					receivedKeyEncoded: escapedSecret(apiKey, dims.escapeForm),
					note: `API key ${escapedSecret(apiKey, dims.escapeForm)} is not valid for this company`,
				}
			: `API key ${escapedSecret(apiKey, dims.escapeForm)} is not valid for this company`,
		...revisitsAndTexts(seed, dims),
		r6b: r6bData(seed),
		r9: r9Data(seed),
		r10: r10Data(seed),
		r11: r11Data(seed),
		r16: r16Data(seed),
		r17: r17Data(seed),
	};
}

/** Names of identifiers the document does not show that a service may send (r6-data-b F2). */
export const ID_NUMBER_NAMES = Object.freeze([
	'orderNumber',
	'sbpOperationNumber',
	'invoice_no',
	'operationNum',
	// r14-data, finding 8: a unique ID's other names.
	'orderUid',
	'sbpOperationUid',
	'guid',
]);
/** Names of key fields on no list of the package (r6-data-b F4). */
export const UNLISTED_KEY_NAMES = Object.freeze([
	'memberKey',
	'sessionKey',
	'authKey',
	'signingKey',
	'hmacKey',
	'userKey',
	'webhook_signing_key',
	'clientSecrets',
]);
export const MASKED_PAN_FORMS = Object.freeze(['masked', 'full', 'fullNumber']);
export const REQUISITE_SHAPES = Object.freeze([
	'string',
	'array',
	'object',
	'numberInArray',
	'withBankName',
]);
/**
 * A payout's `requisiteType` as a service may spell it (not shown; outside read r14-data,
 * finding 5): the document's `card`, another case, a longer word, none, or a type that is not a
 * card. The requisite is masked by what it holds whatever this says.
 */
/** Names under which a wallet answer may carry its token (outside read r14-data, finding 3). */
export const WALLET_TOKEN_NAMES = Object.freeze(['token', 'tokenContract', 'contractAddress']);
export const REQUISITE_TYPES = Object.freeze(['card', 'CARD', 'Card', 'bank_card', null, 'phone']);
export const LINK_SECRET_FORMS = Object.freeze(['pathCard', 'queryCvv', 'both']);
export const COLLIDING_FIELDS = Object.freeze(['deliveryId', 'source', 'receivedAt', 'changeKey']);

/** `length` digits (the first not 0) that pass the card checksum. */
function drawLuhnDigits(r, length) {
	let body = String(r.int(1, 9));
	while (body.length < length - 1) body += String(r.int(0, 9));
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		let digit = Number(body[body.length - 1 - i]);
		if (i % 2 === 0) digit *= 2;
		sum += digit > 9 ? digit - 9 : digit;
	}
	return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * Outside read r6-data-b: a card's `maskedPan` as the service may send it (masked, or a full
 * number by mistake); an identifier under a name like `orderNumber` whose digits pass the card
 * checksum; a card requisite of every JSON shape; a key under a name no list holds; a link with a
 * card number or a CVV; a card.assigned body with fields named like the trigger's own. Drawn from
 * its own stream, so the other dimensions of a seed keep their values.
 */
export function r6bData(seed) {
	const r = drawStream(seed, 'data:r6b');
	const pan = drawCardNumber(r);
	const maskedPanForm = r.pick(MASKED_PAN_FORMS);
	const idName = r.pick(ID_NUMBER_NAMES);
	const idLength = r.int(15, 19);
	// As text or as a JSON number (read to the digit, also past 2^53).
	const idValue = drawLuhnDigits(r, idLength);
	const idAsNumber = r.chance(0.5);
	const requisiteShape = r.pick(REQUISITE_SHAPES);
	// A card requisite that may fail the checksum (a mistyped number: requisites_invalid).
	const requisite = `2200${String(r.int(10_000_000, 99_999_999))}${String(r.int(1000, 9999))}`;
	const keyName = r.pick(UNLISTED_KEY_NAMES);
	const keyForm = r.pick(['lowerPrefixed', 'hex']);
	const keyValue =
		keyForm === 'hex' ? drawHex(r, r.pick([32, 64])) : `uk_${drawHex(r, 12)}q${drawHex(r, 12)}`;
	const keyNested = r.chance(0.5);
	const linkForm = r.pick(LINK_SECRET_FORMS);
	const cvv = String(r.int(100, 999));
	const linkPan = drawCardNumber(r);
	const path = linkForm === 'queryCvv' ? `cards/k-${seed}/details` : `cards/${linkPan}/details`;
	const query = linkForm === 'pathCard' ? 'lang=ru' : `cvv=${cvv}&lang=ru`;
	const collide = COLLIDING_FIELDS.filter(() => r.chance(0.5));
	// Drawn last: the seed's other values stay what they were.
	const requisiteType = r.pick(REQUISITE_TYPES);
	// A wallet answer's token (GET /wallets, fields not shown; r14-data, finding 3): under which
	// name, and beside what that says it is a chain's.
	const walletTokenName = r.pick(WALLET_TOKEN_NAMES);
	const walletToken = r.pick(DEPOSIT_TOKENS);
	const walletBeside = r.pick(['network', 'standard', 'hash', 'chainAddress']);
	const collisions = {
		deliveryId: `evt_${seed}${String(r.int(100000, 999999))}`,
		source: r.pick(['bridge', 'issuer', 'processor']),
		receivedAt: '2026-11-28T10:00:00Z',
		changeKey: `ck-${seed}`,
	};
	const maskedPanRaw =
		maskedPanForm === 'masked'
			? `${pan.slice(0, 6)}******${pan.slice(-4)}`
			: maskedPanForm === 'full'
				? pan
				: new RawNumber(pan);
	const requisiteRaw = {
		string: requisite,
		array: [requisite],
		object: { number: requisite },
		numberInArray: [new RawNumber(requisite)],
		withBankName: `${requisite} Сбербанк`,
	}[requisiteShape];
	const key = keyNested
		? { createdBy: { userId: `u-${seed}`, [keyName]: keyValue } }
		: { [keyName]: keyValue };
	return {
		dims: {
			maskedPanForm,
			idName,
			idLength,
			idAsNumber,
			requisiteShape,
			requisiteType,
			walletTokenName,
			walletBeside,
			keyName,
			keyForm,
			keyNested,
			linkForm,
			collide,
		},
		pan,
		maskedPan: maskedPanRaw,
		idValue,
		id: idAsNumber ? new RawNumber(idValue) : idValue,
		requisite,
		requisiteRaw,
		requisiteType,
		walletToken,
		wallet: {
			address:
				walletBeside === 'chainAddress' ? 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' : `addr-${seed}`,
			...(walletBeside === 'chainAddress' ? {} : { [walletBeside]: 'TRON' }),
			[walletTokenName]: walletToken,
			paymentUri: `tron:TJRabPrwbZy45sbavfcjinPJC18kjpRTv8?token=${walletToken}`,
		},
		keyValue,
		key,
		cvv,
		linkPan: linkForm === 'queryCvv' ? undefined : linkPan,
		link: `https://bridge.example/${path}?${query}`,
		collisions: Object.fromEntries(collide.map((name) => [name, collisions[name]])),
		/** What must never be shown: the full numbers, the key, the CVV as `cvv=…`. */
		secrets: [
			...(maskedPanForm === 'masked' ? [] : [pan]),
			requisite,
			keyValue,
			...(linkForm === 'queryCvv' ? [] : [linkPan]),
		],
	};
}

/**
 * Outside read r5-data: a free-text secret and a cut quote of the seed, an order walk that takes,
 * releases and takes again, and a dispute walk that is submitted and in review twice; each entry
 * with `updatedAt` only when the seed's service shows it (orderTimes, disputeTimes).
 */
function revisitsAndTexts(seed, dims) {
	const r = drawStream(seed, 'data:r5');
	const start = Date.parse('2026-11-21T13:00:00.000Z');
	const at = (step) => new Date(start + (step + 1) * 60_000).toISOString();
	const orderId = `0a1b2c3d-0000-4000-8000-${String(seed).padStart(12, '0')}`;
	const orderWalk = ['created', 'in_progress', 'created', 'in_progress', 'success'].map(
		(status, step) => ({
			step,
			status,
			deliveryId: `dlv-order-${seed}-${step}`,
			record: {
				id: orderId,
				amountUsdt: 10.5,
				amountRub: 950,
				status,
				paymentType: 'nspk',
				createdAt: '2026-11-21T12:59:00.000Z',
				...(dims.orderTimes === 'updatedAt' ? { updatedAt: at(step) } : {}),
			},
		}),
	);
	const disputeWalk = ['submitted', 'in_review', 'submitted', 'in_review', 'resolved'].map(
		(status, step) => ({
			step,
			status,
			record: {
				id: `dsp-${seed}`,
				orderId,
				status,
				resolution: status === 'resolved' ? 'refund' : null,
				reason: 'not received',
				createdAt: '2026-11-21T12:59:00.000Z',
				...(dims.disputeTimes === 'updatedAt' ? { updatedAt: at(step) } : {}),
			},
		}),
	);
	// Outside read r7-data, finding 2: a deposit that fails AML, is checked again and fails again.
	// The record shows updatedAt (the document's deposit record); deposit.aml_failed does not.
	const depositId = `d7e8f9a0-0000-4000-8000-${String(seed).padStart(12, '0')}`;
	const depositWalk = ['new', 'aml_pending', 'aml_failed', 'aml_pending', 'aml_failed'].map(
		(status, step) => ({
			step,
			status,
			deliveryId: `dlv-deposit-${seed}-${step}`,
			record: {
				id: depositId,
				...(dims.depositWallet === 'user'
					? { externalId: `user-${seed}`, walletId: `w-${seed}` }
					: {}),
				txHash: `tx${seed}`,
				walletAddress: 'TXyzGenerated',
				amount: 50,
				status,
				amlCheckId: status === 'aml_failed' ? `aml-${seed}-${step}` : null,
				createdAt: '2026-11-21T12:59:00.000Z',
				updatedAt: at(step),
			},
		}),
	);
	// Outside read r8-data, findings 4 and 5: a card assigned, closing and assigned again (a
	// closure declined), closed, and a new card under the same externalId; with `updatedAt` and
	// a moved `assignedAt` on even seeds, with neither on odd ones (no draw: other values stay).
	const timed = seed % 2 === 0;
	const cardWalk = [
		['requested', 'a'],
		['assigned', 'a'],
		['closing', 'a'],
		['assigned', 'a'],
		['closed', 'a'],
		['assigned', 'b'],
	].map(([status, card], step) => ({
		step,
		status,
		deliveryId: `dlv-card-${seed}-${step}`,
		record: {
			id: `card-${card}-${seed}`,
			externalId: `emp-${seed}`,
			status,
			maskedPan: status === 'requested' ? null : '411111******1111',
			expiry: status === 'requested' ? null : '12/29',
			createdAt: '2026-11-21T12:59:00.000Z',
			...(timed
				? { assignedAt: status === 'requested' ? null : at(step), updatedAt: at(step) }
				: { assignedAt: null }),
		},
	}));
	return {
		cardWalk,
		textSecret: textSecret(r, dims.textSecretForm),
		cut: cutQuote(r, dims.cutSecret, dims.cutInside),
		orderId,
		orderWalk,
		disputeWalk,
		depositWalk,
	};
}

/** Names of times and counts the document does not show (outside read r9-data, finding 2). */
export const TIME_NUMBER_NAMES = Object.freeze([
	'createdAtUs',
	'confirmedAtNs',
	'settledAtMicros',
	'eventTimestamp',
	'ledgerSeq',
	'chainNonce',
]);

/**
 * Outside read r9-data: a time in µs or ns (or a count) under a name of one, beyond the fields
 * the document shows, whose digits pass the card checksum or not, as a JSON number or as text.
 * It must come out exactly as written (never as a masked card number). Its own stream.
 */
export function r9Data(seed) {
	const r = drawStream(seed, 'data:r9');
	const timeName = r.pick(TIME_NUMBER_NAMES);
	const unit = r.pick(['us', 'ns']);
	const luhnValid = r.chance(0.6);
	const timeAsNumber = r.chance(0.5);
	const length = unit === 'us' ? 16 : 19;
	// A time of 2023–2026: µs and ns since the epoch both start with 17.
	const valid = drawLuhnTail(`17${drawLuhnDigits(r, length).slice(2)}`);
	const digits = luhnValid
		? valid
		: `${valid.slice(0, -1)}${(Number(valid.slice(-1)) + r.int(1, 9)) % 10}`;
	return {
		dims: { timeName, unit, luhnValid, timeAsNumber },
		timeValue: digits,
		time: timeAsNumber ? new RawNumber(digits) : digits,
	};
}

/**
 * Names that read as a time or a count but name a card or its number (outside read r10-data,
 * finding 1): a card number under one is masked like any unknown field's.
 */
export const PAN_TIME_NAMES = Object.freeze([
	'panSeq',
	'lastPanTs',
	'cardNumberUpdatedAt',
	'issuerPanVersion',
	'panNonce',
	'cardSequence',
	'panCount',
	'lastCardTs',
]);

/** Names of a time (no card word) under which a card number is still no time (r10-data). */
export const CARD_AS_TIME_NAMES = Object.freeze(['retryAfterTs', 'issuedAt', 'expiresAtUs']);

/** Ways a card number is written: text, text in groups of four, a JSON number. */
export const PAN_FORMS = Object.freeze(['text', 'grouped', 'number']);

/**
 * Outside read r10-data: a card number (Visa 4…, Mir 2200…, Mastercard 2221…; passing the
 * checksum) under a card-named time or count name, and another under a time's name where no time
 * can be (grouped digits, or a number that read as s/ms/µs/ns is after 2038-01-19), each as
 * text, grouped text or a JSON number. Neither may come out in full. Its own stream.
 */
export function r10Data(seed) {
	const r = drawStream(seed, 'data:r10');
	const panName = r.pick(PAN_TIME_NAMES);
	const panForm = r.pick(PAN_FORMS);
	const timeName = r.pick(CARD_AS_TIME_NAMES);
	const timeForm = r.pick(PAN_FORMS);
	const card = () => {
		const prefix = r.pick(['4', '2200', '2221']);
		return drawLuhnTail(`${prefix}${drawLuhnDigits(r, 16).slice(prefix.length)}`);
	};
	const written = (pan, form) =>
		form === 'number'
			? new RawNumber(pan)
			: form === 'grouped'
				? pan.replace(/(\d{4})(?=\d)/g, '$1 ')
				: pan;
	const pan = card();
	const timePan = card();
	return {
		dims: { panName, panForm, timeName, timeForm },
		pans: [pan, timePan],
		fields: { [panName]: written(pan, panForm), [timeName]: written(timePan, timeForm) },
	};
}

/** Card numbers' names by a card's abbreviation (outside read r11-data, finding 1). */
export const CC_NAMES = Object.freeze(['ccNumber', 'cc_number', 'ccNo', 'ccNum', 'panNumber']);

/**
 * Characters a text may join a card number's groups with that the gate reads as a dash or as
 * nothing (r11-data, finding 3): minus sign, fullwidth and small hyphen-minus, figure dash,
 * combining grapheme joiner, Hangul filler, variation selector.
 */
export const PAN_JOINERS = Object.freeze([
	'\u2212',
	'\uff0d',
	'\ufe63',
	'\u2012',
	'\u034f',
	'\u3164',
	'\ufe0f',
]);

/**
 * Outside read r11-data: a card number under a card abbreviation's name (CC_NAMES), and another in
 * a free-text field with its groups joined by one of PAN_JOINERS. Neither may come out in full.
 * Its own stream.
 */
export function r11Data(seed) {
	const r = drawStream(seed, 'data:r11');
	const ccName = r.pick(CC_NAMES);
	const joiner = r.pick(PAN_JOINERS);
	const card = () => drawLuhnTail(`4${drawLuhnDigits(r, 16).slice(1)}`);
	const pan = card();
	const textPan = card();
	return {
		dims: { ccName, joiner: `U+${joiner.codePointAt(0).toString(16).toUpperCase()}` },
		pans: [pan, textPan],
		fields: {
			[ccName]: pan,
			memo: `card ${textPan.replace(/(\d{4})(?=\d)/g, `$1${joiner}`)} on file`,
		},
	};
}

/** `digits` with its last digit set so that the whole passes the card checksum. */
function drawLuhnTail(digits) {
	const body = digits.slice(0, -1);
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		let digit = Number(body[body.length - 1 - i]);
		if (i % 2 === 0) digit *= 2;
		sum += digit > 9 ? digit - 9 : digit;
	}
	return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A card's counters of PIN or CVV tries, not shown (outside read r16-data, finding 1). */
export const PIN_COUNTER_NAMES = Object.freeze([
	'pinTriesLeft',
	'remainingPinAttempts',
	'failedPinAttempts',
	'pinAttemptsLeft',
	'pinRetries',
	'cvv_retries_left',
]);
/** A record's or a lookup's key, not shown (outside read r16-data, finding 8). */
export const RECORD_KEY_NAMES = Object.freeze([
	'key',
	'orderKey',
	'periodKey',
	'paymentKey',
	'invoiceKey',
	'referenceKey',
	'statusKey',
	'typeKey',
	'categoryKey',
]);
export const RECORD_KEY_FORMS = Object.freeze(['date', 'recordId', 'unixSeconds']);
/** Names of a name/value pair's name side (outside read r16-data, finding 9). */
export const PAIR_NAME_FORMS = Object.freeze([
	'name',
	'kind',
	'attribute',
	'param',
	'property',
	'code',
	'title',
	'label',
	'field',
	// Other frameworks' spellings, matched without case or separators (outside read r22-data,
	// finding 1: FluentValidation, Go Fiber, ASP.NET ModelState).
	'PropertyName',
	'failed_field',
	'Key',
]);
export const PAIR_LABELS = Object.freeze(['PIN', 'cvv', 'cardPin', 'CVV2']);
/** Names of a name/value pair's value side, in several spellings (outside read r22-data). */
export const PAIR_VALUE_FORMS = Object.freeze(['value', 'Value', 'attemptedValue', 'raw_value']);

/**
 * Outside read r16-data: a card's PIN-attempt counter (kept to the digit), a record's key holding
 * a date, the record's own ID or a unix time (kept, never learned: the record's dates and later
 * runs' stay), a PIN or CVV as a name/value pair named by any usual naming key (hidden, its label
 * kept). Its own stream.
 */
export function r16Data(seed) {
	const r = drawStream(seed, 'data:r16');
	const counterName = r.pick(PIN_COUNTER_NAMES);
	const counterValue = r.int(0, 5);
	const recordKeyName = r.pick(RECORD_KEY_NAMES);
	const recordKeyForm = r.pick(RECORD_KEY_FORMS);
	const pairNameKey = r.pick(PAIR_NAME_FORMS);
	const pairLabel = r.pick(PAIR_LABELS);
	const pairValue = String(r.int(5000, 9899));
	const unixSeconds = 1_795_939_200 + r.int(0, 86_400);
	const pairValueKey = r.pick(PAIR_VALUE_FORMS);
	return {
		dims: { counterName, recordKeyName, recordKeyForm, pairNameKey, pairLabel, pairValueKey },
		counterValue,
		unixSeconds,
		pairValue,
		/** The record key's value, given the record's own ID. */
		recordKeyValue: (recordId) =>
			recordKeyForm === 'date'
				? '2026-11-21'
				: recordKeyForm === 'recordId'
					? recordId
					: unixSeconds,
		cardFields: {
			[counterName]: counterValue,
			attrs: [{ [pairNameKey]: pairLabel, [pairValueKey]: pairValue }],
		},
	};
}

/** The card checksum of a number written as digits. */
function passesLuhn(digits) {
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let digit = Number(digits[digits.length - 1 - i]);
		if (i % 2 === 1) digit *= 2;
		sum += digit > 9 ? digit - 9 : digit;
	}
	return sum % 10 === 0;
}

/** Where an order carries a registry's number that passes the card checksum (r17-data F4). */
export const REGISTRY_FORMS = Object.freeze([
	'ogrnField',
	'ogrnipText',
	'innKppText',
	'qrPersAcc',
	'ogrnText',
	'ogrnBare',
]);
/** Plain undeclared fields of the company profile and a member (r17-data F7), with their values. */
export const CLOSED_PLAIN_FIELDS = Object.freeze([
	['inn', '7707083893'],
	['feePercent', 1.5],
	['timezone', 'Europe/Moscow'],
	['plan', 'pro'],
	['limits', { dailyRub: 100000 }],
	['position', 'CFO'],
	['invitedBy', 'u_0'],
	['keyType', 'legacy'],
]);

/**
 * Outside read r17-data: an OGRN, an OGRNIP, an INN/KPP pair or an ST00012 account passing the
 * card checksum (kept exactly: no card scheme issues them, or a registry's word or field names
 * them), a real scheme's card number in the same order's text (masked), and a plain undeclared
 * field of a closed record (shown exactly). Its own stream.
 */
export function r17Data(seed) {
	const r = drawStream(seed, 'data:r17');
	const registryForm = r.pick(REGISTRY_FORMS);
	const plain = r.pick(CLOSED_PLAIN_FIELDS);
	const digits = (count) => Array.from({ length: count }, () => String(r.int(0, 9))).join('');
	// Drawn until the checksum passes (one in ten does): bounded, the stream decides.
	const passing = (make) => {
		for (let i = 0; i < 500; i++) {
			const value = make();
			if (passesLuhn(value.replace(/\D/g, ''))) return value;
		}
		throw new Error('r17Data: no number passing the card checksum drawn');
	};
	const year = () => String(r.int(2, 26)).padStart(2, '0');
	const ogrn = passing(() => {
		const body = `1${year()}${digits(9)}`;
		return body + String((BigInt(body) % 11n) % 10n);
	});
	const ogrnip = passing(() => {
		const body = `3${String(r.int(4, 26)).padStart(2, '0')}${digits(11)}`;
		return body + String((BigInt(body) % 13n) % 10n);
	});
	// An INN with its own check digit (a registry's word shields only a number of that registry,
	// dfix23), its KPP, the pair passing the card checksum too.
	const inn10 = (body) =>
		body +
		String(
			([2, 4, 10, 3, 5, 9, 4, 6, 8].reduce((sum, weight, i) => sum + weight * Number(body[i]), 0) %
				11) %
				10,
		);
	const innKpp = passing(() => `${inn10(`50${digits(7)}`)}/50${digits(7)}`);
	// PersAcc keeps any number but a scheme's card (dfix23): 13 digits starting 1, which no scheme
	// issues at that length, passing the checksum.
	const persAcc = passing(() => `1${digits(12)}`);
	const card = passing(() => `4${digits(15)}`);
	const fields = {
		ogrnField: { payeeOgrn: ogrn },
		ogrnipText: { payeeName: `ИП Иванов И.И., ОГРНИП ${ogrnip}` },
		innKppText: { payeeDetails: `ООО Ромашка, ИНН/КПП ${innKpp}` },
		qrPersAcc: {
			qrCode: `ST00012|Name=ООО Ромашка|PersonalAcc=40702810938000012345|BIC=044525225|PersAcc=${persAcc}|Sum=100000`,
		},
		ogrnText: { merchantComment: `ООО Ромашка ОГРН ${ogrn}` },
		// No word names it: kept because no card scheme issues 13 digits starting 1.
		ogrnBare: { counterparty: `ООО Ромашка ${ogrn}` },
	}[registryForm];
	return {
		dims: { registryForm, plainField: plain[0] },
		fields,
		card,
		cardText: { payerNote: `оплачено ${card}` },
		plainField: plain[0],
		plainValue: plain[1],
	};
}
