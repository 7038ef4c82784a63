// Issue 43 item 4: suites generated from the record model (nodes/shared/contract/records.ts). For
// every record and webhook payload of the document, in every mode a reader meets (the user's
// output, a tool result for the AI model, a thrown error, a log line):
// - every identifier and amount comes out byte-exact, whatever it looks like: a number that
//   passes the card checksum, an invoice number shaped like an invite token, a key shape, a value
//   the run learned as a secret;
// - every secret is masked in every shape: under its field, nested in an object or a list under
//   it, and written into free text and unknown fields URL-encoded, JSON-escaped or (a card
//   number) split by any separator.
// A record or an event added to the model is a case here with no edit.
import type { IDataObject, Logger } from 'n8n-workflow';

import { EVENT_PAYLOADS, RECORDS } from '../../nodes/shared/contract/records';
import type { FieldSpec } from '../../nodes/shared/contract/records';
import {
	gateError,
	gateItems,
	gateJson,
	gateLogger,
	learnFromAnswer,
	openRun,
	rememberCredential,
} from '../../nodes/shared/gate';

/* ------------------------------------------------------------ the secrets */

/** Learned from a secret field listed as an object; carries `/`, `+` and `=` (changed by URL-encoding). */
const KEY = 'dummyK3y/9Qw+Zt=Lm7Xp2Rv';
/** A session token with a quote and a backslash (changed by JSON-escaping). */
const SESSION = 'dummyS3ss"Tok\\8Kd3Tg5Hw';
/** A card number, named once under a nested `cardNumber`. */
const CARD = '4000056655665556';
/** The credential's own API key. */
const CREDENTIAL_KEY = 'dummyCr3dK3y7Vb2Nq6Wd9';

function forbidden(value: string): string[] {
	const encoded = encodeURIComponent(value);
	return [
		value,
		encoded,
		encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		JSON.stringify(value).slice(1, -1),
	];
}

const GROUPINGS = ['\u00a0', '\u2009', '\u202f', '.', '-', ' - ', ' '];
const grouped = (gap: string) => (CARD.match(/.{4}/g) ?? []).join(gap);

/** A free text quoting every secret in every form. */
const secretText = [
	`key ${KEY}`,
	`encoded ${encodeURIComponent(KEY)}`,
	`escaped ${JSON.stringify(SESSION).slice(1, -1)}`,
	`session ${SESSION}`,
	...GROUPINGS.map((gap) => `card ${grouped(gap)}`),
	`own ${CREDENTIAL_KEY}`,
].join('; ');

/** The secret fields planted into every record: nested, listed, plain. */
const SECRET_FIELDS: IDataObject = {
	apiKey: { value: KEY, also: [KEY, { deep: KEY }] },
	sessionToken: SESSION,
	card: { cardNumber: CARD },
	credentials: [{ value: SESSION }],
};

/** What no reader may find in anything gated. */
function leaks(text: string): string[] {
	const found: string[] = [];
	for (const value of [KEY, SESSION, CREDENTIAL_KEY]) {
		for (const form of forbidden(value)) if (text.includes(form)) found.push(form);
	}
	if (text.replace(/[\s.\-\u00a0\u2009\u202f]/g, '').includes(CARD.slice(0, 12))) found.push(CARD);
	return found;
}

/* ------------------------------------------------------------ the identifiers */

/** Identifiers that look like what the gate hides. */
const ID_CLASSES: Record<string, string> = {
	'16 digits, passes the card checksum': '2342342342342341',
	'19 digits, passes the card checksum': '2342342342342342349',
	'an invoice number shaped like an invite token': 'inv_20261142',
	'a key shape': ['sk', 'live', 'Ab12Cd34Ef56Gh78Ij90'].join('_'),
	'an invite-token shape': ['inv', '3f9a8b7c6d5e4f3a2b1c'].join('_'),
	'a webhook-secret shape': ['whsec', '0123456789abcdef0123'].join('_'),
	'a value learned as a secret': KEY,
};
/** Amounts: a 16-digit integer that passes the card checksum (a test card number), and a decimal. */
const AMOUNTS = [5555555555554444, 1234.56];

type Fields = Record<string, FieldSpec>;

const MODELS: Array<[string, Fields]> = [
	...Object.entries(RECORDS).map(
		([name, fields]) => [`record ${name}`, fields as Fields] as [string, Fields],
	),
	...Object.entries(EVENT_PAYLOADS).map(
		([name, fields]) => [`event ${name}`, fields as Fields] as [string, Fields],
	),
];

/** One record of the model: its identifiers of one class, amounts, texts full of secrets. */
function plant(fields: Fields, id: string): { record: IDataObject; exact: string[] } {
	const record: IDataObject = { ...SECRET_FIELDS, zqNote: secretText, message: secretText };
	const exact: string[] = [];
	let amount = 0;
	for (const [name, spec] of Object.entries(fields)) {
		if (spec.kind === 'identifier') {
			record[name] = id;
			exact.push(name);
		} else if (spec.kind === 'amount') {
			record[name] = AMOUNTS[amount++ % AMOUNTS.length];
			exact.push(name);
		} else if (spec.kind === 'text' || spec.kind === 'unknown') {
			record[name] = secretText;
		} else if (spec.kind === 'secret') {
			record[name] = { value: KEY, list: [SESSION] };
		}
	}
	// Unknown fields named like identifiers are identifiers too.
	record.invoiceRef = id;
	record.partner_id = id;
	exact.push('invoiceRef', 'partner_id');
	return { record, exact };
}

/* ------------------------------------------------------------ the modes */

type Mode = 'user' | 'model' | 'error' | 'log';
const MODES: Mode[] = ['user', 'model', 'error', 'log'];

interface Seen {
	/** The gated record as the reader gets it. */
	record: IDataObject;
	/** Everything else the reader can read (messages, stack), as one text. */
	text: string;
	/** A free text that quoted the identifier, as the reader gets it. */
	quoted?: string;
}

/** A run of one credential that has read the record from the service, as the transport does. */
function runThatRead(record: IDataObject): object {
	const ctx = {};
	openRun(ctx);
	rememberCredential({ baseUrl: 'https://api.payments.test', apiKey: CREDENTIAL_KEY }, ctx);
	learnFromAnswer(ctx, record);
	return ctx;
}

function through(mode: Mode, record: IDataObject, id: string): Seen {
	const ctx = runThatRead(record);
	const quote = `Payout ${id} could not be cancelled`;
	if (mode === 'user' || mode === 'model') {
		const [[item]] = gateItems(ctx, [[{ json: { ...record, comment: quote } }]], mode);
		const json = mode === 'model' ? gateJson(ctx, item.json, 'model') : item.json;
		return { record: json, text: '', quoted: json.comment as string };
	}
	if (mode === 'error') {
		const error = new Error(`${quote}: ${secretText}`) as Error & { context: IDataObject };
		error.context = { data: record };
		gateError(ctx, error);
		return {
			record: error.context.data as IDataObject,
			text: `${error.message} ${error.stack}`,
			quoted: error.message,
		};
	}
	const lines: Array<[string, unknown]> = [];
	const line = (message: string, meta?: unknown) => lines.push([message, meta]);
	const logger = { debug: line, info: line, warn: line, error: line } as unknown as Logger;
	// The logger of a context made from the run's (as the poll trigger's calls are).
	const logged = Object.assign(Object.create(ctx) as object, { logger }) as { logger: Logger };
	gateLogger(logged).info(`${quote}; ${secretText}`, { record });
	const [[message, meta]] = lines;
	return {
		record: (meta as IDataObject).record as IDataObject,
		text: message,
		quoted: message,
	};
}

/* ------------------------------------------------------------ the cases */

describe.each(MODELS)('%s', (_name, fields) => {
	describe.each(MODES)('%s', (mode) => {
		it.each(Object.entries(ID_CLASSES))(
			'identifiers and amounts byte-exact (%s), every secret masked',
			(idClass, id) => {
				const { record, exact } = plant(fields, id);
				const seen = through(mode, record, id);
				for (const name of exact)
					expect({ [name]: seen.record[name] }).toEqual({ [name]: record[name] });
				// Every text but the identifiers themselves (which stay as they are, also when one
				// equals a learned secret).
				const rest = { ...seen.record };
				for (const name of exact) delete rest[name];
				expect(leaks(`${JSON.stringify(rest)} ${seen.text}`)).toEqual([]);
				// In a free text an identifier the run read stays readable; a learned secret does not.
				if (idClass !== 'a value learned as a secret') expect(seen.quoted).toContain(id);
			},
		);
	});
});
