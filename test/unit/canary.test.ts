// Issue 37: no secret leaves by any door. Canary secrets are planted in every position of every
// answer of every operation (taken from the node's description: a new resource, operation or
// watched list is a case here with no edit), and each operation runs in normal mode (throwing and
// with Continue On Fail), as an AI agent's tool and as an MCP client's tool; the webhook trigger
// gets deliveries and the poll trigger answers planted the same way. No canary may appear in
// anything a user or a model can read: output items, every text of a thrown error (message,
// description, stack, context, cause, the response n8n keeps), hints and log lines. A field a
// user asked to see in full (Reveal) is the one thing read past, and only that field.
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';
import nock from 'nock';

import { unknownItemExample } from '../../nodes/CompanyPayments/payment/resolveOutcome.operation';
import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { resources } from '../../nodes/CompanyPayments/resources';
import type { OperationDefinition } from '../../nodes/CompanyPayments/types';
import { CompanyPaymentsPollTrigger } from '../../nodes/CompanyPaymentsPollTrigger/CompanyPaymentsPollTrigger.node';
import { PROPERTIES as POLL_PROPERTIES } from '../../nodes/CompanyPaymentsPollTrigger/description';
import { revealedFields } from '../../nodes/shared/gate';
import type { FakeContext } from './helpers/n8n';
import { BASE_URL, createContext, runCredentialTest, toolContext } from './helpers/n8n';
import { createPollContext } from './helpers/poll';
import { SAMPLE_EVENTS, deliver } from './helpers/trigger';

/*
 * The canaries. None has the shape of a secret, so only the gate's knowledge of the value can
 * catch them where no name or shape gives them away: the API key carries `/`, `+` and `=` (they
 * change when URL-encoded), the previous webhook secret a quote and a backslash (they change when
 * JSON-escaped). The card number passes the Luhn check; the CVV is three digits.
 */
const CANARY = {
	apiKey: 'dummyK3y/9Qw+Zt=Lm7Xp2Rv',
	webhookSecret: 'dummyH00kS3cret7Vb2Nq6Wd',
	previousSecret: 'dummyPr3v"S3cret\\8Kd3Tg',
	inviteToken: 'dummyInv1t3Tok5Hg7Jk2Ws',
	cardNumber: '4000056655665556',
	cvv: '739',
};
type CanaryName = keyof typeof CANARY;
const NAMES = Object.keys(CANARY) as CanaryName[];
/** Canaries that are long enough to be found by value anywhere in a text. */
const LONG = NAMES.filter((name) => name !== 'cvv');
/** The credential's own values: hidden wherever they stand, identifiers included. */
const CREDENTIAL_CANARIES: CanaryName[] = ['apiKey', 'webhookSecret', 'previousSecret'];

const CREDENTIALS = {
	environment: 'staging',
	baseUrl: BASE_URL,
	apiKey: CANARY.apiKey,
	webhookSecret: CANARY.webhookSecret,
	previousWebhookSecret: CANARY.previousSecret,
};

/* ------------------------------------------------------------ what a reader must never see */

/** Every way a canary could still be read: as is, URL-encoded (either case), JSON-escaped. */
function forbiddenForms(name: CanaryName): string[] {
	const value = CANARY[name];
	if (name === 'cvv') return [];
	const encoded = encodeURIComponent(value);
	const forms = new Set([
		value,
		encoded,
		encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		JSON.stringify(value).slice(1, -1),
	]);
	if (name === 'cardNumber') {
		forms.add(value.slice(0, 12));
		forms.add((value.match(/.{4}/g) ?? []).join(' '));
	}
	return [...forms];
}

/** A CVV is three digits: it is read as a whole value, or named as a CVV in a text. */
const CVV_READ = [
	new RegExp(`^\\s*${CANARY.cvv}\\s*$`),
	new RegExp(`(cvv|cvc)\\W{0,4}${CANARY.cvv}\\b`, 'i'),
];

/** Every text a reader can see in a value, with where it was. */
function texts(value: unknown, at: string, out: Array<[string, string]>, seen = new Set<object>()) {
	if (typeof value === 'string') out.push([at, value]);
	else if (typeof value === 'number') out.push([at, String(value)]);
	else if (typeof value === 'object' && value !== null) {
		if (seen.has(value)) return;
		seen.add(value);
		if (Buffer.isBuffer(value)) {
			out.push([at, value.toString('utf8')]);
			return;
		}
		const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
		for (const key of keys) {
			// The workflow's node (its parameters are what the user typed in) is not the error's text.
			if (value instanceof Error && key === 'node') continue;
			texts((value as Record<string, unknown>)[key], `${at}.${key}`, out, seen);
		}
		if (value instanceof Error && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
			texts((value as unknown as { toJSON: () => unknown }).toJSON(), `${at}.toJSON()`, out, seen);
		}
	}
}

/** The canaries a reader could find in what the case put out, with where. */
function leaks(readable: Array<[string, string]>): string[] {
	const found: string[] = [];
	for (const [at, text] of readable) {
		for (const name of LONG) {
			const form = forbiddenForms(name).find((candidate) => text.includes(candidate));
			if (form !== undefined)
				found.push(`${name} (${JSON.stringify(form)}) at ${at}: ${text.slice(0, 300)}`);
		}
		if (CVV_READ.some((pattern) => pattern.test(text)))
			found.push(`cvv at ${at}: ${text.slice(0, 300)}`);
	}
	return found;
}

/** Output items as a reader sees them: a field opened by Reveal is the only one read past. */
function outputTexts(
	items: INodeExecutionData[],
	out: Array<[string, string]>,
	honourReveal: boolean,
) {
	items.forEach((item, index) => {
		const open = honourReveal ? new Set(revealedFields(item.json)) : new Set<string>();
		for (const [key, value] of Object.entries(item.json)) {
			if (!open.has(key)) texts(value, `item[${index}].${key}`, out);
		}
	});
}

/* ------------------------------------------------------------ the answers, with canaries planted */

/** A text that quotes a value, as a service message or a comment would. */
const sentence = (value: string) => `Проверьте ${value}: see ${value} (${value}).`;

/**
 * One record with each canary in every position: under an unknown name, under names the node
 * and the document use, inside a text, a nested list and object, a link (path and query,
 * URL-encoded), a JSON text (escaped), and the secrets listed under one field. The service also
 * names the card, CVV and invite token once as what they are (`cardNumber`, `cvv`, `token`): a
 * value named once is known by value wherever else it shows up.
 */
function plantedRecord(credential: CanaryName[] = CREDENTIAL_CANARIES): IDataObject {
	const record: IDataObject = {
		id: '7d3c2b1a-1111-4222-8333-944455566677',
		status: 'assigned',
		cardNumber: CANARY.cardNumber,
		cvv: CANARY.cvv,
		token: CANARY.inviteToken,
		webhookSecrets: [CANARY.webhookSecret, CANARY.previousSecret],
		message: sentence(LONG.map((name) => CANARY[name]).join(', ')),
		url: `https://cabinet.example.com/invite/${CANARY.inviteToken}?k=${encodeURIComponent(CANARY.apiKey)}`,
		webhookUrl: `https://n8n.example.com/webhook/${encodeURIComponent(CANARY.webhookSecret)}`,
		details: {
			cvv: CANARY.cvv,
			note: `CVV ${CANARY.cvv}`,
			secrets: NAMES.map((name) => CANARY[name]),
		},
	};
	for (const name of NAMES) {
		const value = CANARY[name];
		record[`zq${name}`] = value;
		record[`${name}Note`] = sentence(value);
		record[`${name}Nested`] = { list: [{ deep: [value] }], text: [sentence(value)] };
		record[`${name}Link`] =
			`https://x.example.com/p/${encodeURIComponent(value)}?q=${encodeURIComponent(value)}`;
		record[`${name}Json`] = JSON.stringify({ value, again: JSON.stringify({ value }) });
		record[`${name}Spaced`] =
			name === 'cardNumber' ? (value.match(/.{4}/g) ?? []).join(' ') : value;
	}
	// Fields the node reads or shows under their own names.
	for (const field of ['comment', 'failReason', 'requisite', 'reason', 'email', 'bank']) {
		record[field] = LONG.map((name) => CANARY[name]).join(' ');
	}
	// Identifiers are never changed (issue 43): a value learned from a secret field, or one that
	// looks like a card or a token, stays in them as it is (gate-identifiers.test.ts). The
	// credential's own key and secrets are the one exception, hidden wherever they stand.
	for (const field of ['externalId', 'walletAddress']) {
		record[field] = credential.map((name) => CANARY[name]).join(' ');
	}
	return record;
}

/** A text that is not JSON (a proxy's page, a cut-short answer). */
const planted = `<html>${NAMES.map((name) => `${name}=${CANARY[name]}`).join(' ')} CVV ${CANARY.cvv} ${encodeURIComponent(CANARY.apiKey)}</html>`;

/**
 * Headers of every answer: the credential's secrets in the request ID (which errors show) and in
 * headers nobody reads. A bare token or card number in a header of an answer that names it
 * nowhere else cannot be told from a request ID: those are planted in the bodies only.
 */
const plantedHeaders = {
	'X-Request-Id': `req-${CANARY.apiKey}-${CANARY.previousSecret}`,
	'X-Debug': [CANARY.apiKey, CANARY.webhookSecret, CANARY.previousSecret].join(';'),
	'Set-Cookie': `session=${CANARY.webhookSecret}`,
};

interface Answer {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** Every kind of answer, each with canaries in every position it has. */
const ANSWERS: Record<string, () => Answer> = {
	'2xx record': () => ({ status: 200, body: plantedRecord() }),
	'2xx list': () => ({ status: 200, body: [plantedRecord(), plantedRecord()] }),
	'2xx envelope': () => ({
		status: 200,
		body: { items: [plantedRecord()], data: [plantedRecord()], total: 2, ...plantedRecord() },
	}),
	'4xx error body': () => ({
		status: 400,
		body: {
			statusCode: 400,
			error: 'Bad Request',
			errorCode: 'VALIDATION_ERROR',
			message: [sentence(CANARY.apiKey), sentence(CANARY.inviteToken), `CVV ${CANARY.cvv}`],
			details: plantedRecord(),
			required: CANARY.webhookSecret,
			path: `/api/auth/invites/${CANARY.inviteToken}?api_key=${encodeURIComponent(CANARY.apiKey)}`,
			requestId: CANARY.previousSecret,
			token: CANARY.inviteToken,
			cardNumber: CANARY.cardNumber,
		},
	}),
	'404 without request ID (header read)': () => ({
		status: 404,
		body: {
			statusCode: 404,
			error: 'Not Found',
			errorCode: 'NOT_FOUND',
			message: sentence(CANARY.cardNumber),
		},
	}),
	'5xx not JSON': () => ({ status: 502, body: planted }),
	"redirect's Location": () => ({
		status: 302,
		body: plantedRecord(),
		headers: {
			Location: `https://login.example.com/invite/${CANARY.inviteToken}/${encodeURIComponent(CANARY.apiKey)}/${CANARY.webhookSecret}?token=${CANARY.inviteToken}#${CANARY.previousSecret}`,
		},
	}),
	'2xx not JSON': () => ({ status: 200, body: planted }),
	'2xx JSON cut short': () => ({
		status: 200,
		body: JSON.stringify(plantedRecord()).slice(0, 400),
	}),
};

/** The service: every call of the case gets the same kind of answer. */
function serve(answer: () => Answer) {
	const reply = () => {
		const { status, body, headers } = answer();
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		return [
			status,
			text,
			{ 'Content-Type': 'application/json', ...plantedHeaders, ...headers },
		] as [number, string, Record<string, string>];
	};
	const scope = nock(BASE_URL).persist();
	for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
		scope[method](/.*/).reply(reply);
	}
}

/* ------------------------------------------------------------ parameters, from the description */

const ID = '7d3c2b1a-1111-4222-8333-944455566677';

/** Values for the fields an operation needs, by the field's name; anything else by its type. */
const BY_NAME: Record<string, unknown> = {
	qrCode: 'https://qr.nspk.ru/AS10001?type=02&sum=150000&cur=RUB',
	quoteId: ID,
	reason: 'Wrong amount',
	externalId: 'user-42',
	inviteToken: CANARY.inviteToken,
	email: 'carol@example.com',
	password: 'dummy-Passw0rd-for-canary',
	targetAmount: '25',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: CANARY.cardNumber,
	updateFields: { role: 'member', webhookUrl: 'https://n8n.example.com/webhook/x' },
	agentMayMoveMoney: true,
	paymentReference: 'INV-1042',
	// Resolve Outcome's input: an unknown Payout Cancel item, looked up by its payout ID.
	unknownItem: unknownItemExample(CANARY.apiKey, BASE_URL),
};

function valueFor(property: INodeProperties): unknown {
	if (property.name in BY_NAME) return BY_NAME[property.name];
	if (/Id$/.test(property.name) && property.type !== 'boolean') return ID;
	if (!property.required) return undefined;
	if (property.type === 'number') return 1;
	if (property.type === 'string') return 'value-1';
	return property.default;
}

function parametersFor(resource: string, operation: OperationDefinition): IDataObject {
	const parameters: IDataObject = {
		resource,
		operation: operation.value,
		agentMayMoveMoney: true,
		paymentReference: 'INV-1042',
	};
	for (const property of operation.properties) {
		if (property.type === 'notice' || property.type === 'resourceLocator') continue;
		const value = valueFor(property);
		if (value !== undefined) parameters[property.name] = value;
	}
	return parameters;
}

const OPERATIONS = resources.flatMap((resource) =>
	resource.operations.map((operation) => ({ resource: resource.value, operation })),
);

/* ------------------------------------------------------------ the doors of the action node */

type Mode = 'normal' | 'continue on fail' | 'AI agent tool' | 'MCP tool';
const MODES: Mode[] = ['normal', 'continue on fail', 'AI agent tool', 'MCP tool'];

interface Logged {
	lines: Array<[string, unknown]>;
}

function loggerFor(logged: Logged) {
	const line = (message: string, meta?: unknown) => logged.lines.push([message, meta]);
	return { debug: line, info: line, warn: line, error: line };
}

function contextFor(mode: Mode, parameters: IDataObject, logged: Logged): FakeContext {
	const tool = mode === 'AI agent tool' || mode === 'MCP tool';
	const options = {
		parameters,
		credentials: CREDENTIALS,
		continueOnFail: mode === 'continue on fail',
		onError: mode === 'continue on fail' ? ('continueRegularOutput' as const) : undefined,
		// The MCP Server Trigger runs a tool before n8n creates an execution.
		executionId: mode === 'MCP tool' ? '' : '1001',
	};
	const context = tool ? toolContext(options) : createContext(options);
	(context as unknown as { logger: unknown }).logger = loggerFor(logged);
	return context;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Cases run (the count the issue note gives; jest's own count says the same). */
const counted = { cases: 0 };

/*
 * The cases: every operation with every kind of answer, in one of the four modes, turning the mode
 * from case to case; then every class the turn left out, (the operation's kind, the answer, the
 * mode), on the first operation of that kind. Each class runs at least once; the repeats a class
 * had (forty operations, most of them reads that pass the same doors) run a quarter as often.
 */
interface CanaryCase {
	name: string;
	resource: string;
	operation: OperationDefinition;
	answer: string;
	mode: Mode;
}

function canaryCases(): CanaryCase[] {
	const answers = Object.keys(ANSWERS);
	const cases: CanaryCase[] = [];
	const covered = new Set<string>();
	const classOf = (operation: OperationDefinition, answer: string, mode: Mode) =>
		`${operation.kind}|${answer}|${mode}`;
	const add = (resource: string, operation: OperationDefinition, answer: string, mode: Mode) => {
		cases.push({ name: `${resource}.${operation.value}`, resource, operation, answer, mode });
		covered.add(classOf(operation, answer, mode));
	};
	OPERATIONS.forEach(({ resource, operation }, index) => {
		answers.forEach((answer, turn) => add(resource, operation, answer, MODES[(index + turn) % 4]));
	});
	for (const { resource, operation } of OPERATIONS) {
		for (const answer of answers) {
			for (const mode of MODES) {
				if (!covered.has(classOf(operation, answer, mode))) add(resource, operation, answer, mode);
			}
		}
	}
	return cases;
}

describe.each(canaryCases().map((c) => [`${c.name} answered with ${c.answer}`, c] as const))(
	'%s',
	(_name, { resource, operation, answer: kind, mode: caseMode }) => {
		const parameters = parametersFor(resource, operation);
		it(`${caseMode}: no canary in output, error, hint or log`, async () => {
			const mode = caseMode;
			counted.cases++;
			serve(ANSWERS[kind]);
			const logged: Logged = { lines: [] };
			const context = contextFor(mode, parameters, logged);
			let output: INodeExecutionData[] = [];
			let thrown: unknown;
			try {
				output = (await new CompanyPayments().execute.call(context))[0];
			} catch (error) {
				thrown = error;
			}
			const readable: Array<[string, string]> = [];
			outputTexts(output, readable, mode === 'normal' || mode === 'continue on fail');
			if (thrown !== undefined) texts(thrown, 'error', readable);
			texts(context.hints, 'hints', readable);
			texts(logged.lines, 'log', readable);
			expect(leaks(readable)).toEqual([]);
			// The case reached the service (or was refused to an agent before anything was sent):
			// parameters that a new operation cannot run with fail here, not pass unseen.
			const refused =
				output.some((item) => item.json.refused === true) ||
				/"refused":true|Nothing was sent to the payment service/.test(
					`${JSON.stringify(output)} ${String((thrown as Error | undefined)?.message)}`,
				);
			expect(context.requests.length > 0 || refused).toBe(true);
		});
	},
);

/* ------------------------------------------------------------ the triggers */

/** The webhook trigger's credential holds the canary webhook secrets (its API key is another). */
const TRIGGER_CREDENTIAL: CanaryName[] = ['webhookSecret', 'previousSecret'];

describe('webhook trigger', () => {
	/** Every documented event, with each canary in every position of its body. */
	const events = Object.keys(SAMPLE_EVENTS);
	it.each(events)(
		'%s: no canary in the item (with headers and raw body) or a log line',
		async (event) => {
			counted.cases++;
			const body = { ...SAMPLE_EVENTS[event], ...plantedRecord(TRIGGER_CREDENTIAL), event };
			const delivered = await deliver({
				body,
				webhookSecret: CANARY.webhookSecret,
				previousWebhookSecret: CANARY.previousSecret,
				headers: { 'x-debug': LONG.map((name) => CANARY[name]).join(';') },
				parameters: { options: { includeHeaders: true, includeRawBody: true } },
			});
			expect(delivered.item).toBeDefined();
			const readable: Array<[string, string]> = [];
			outputTexts(delivered.outputs?.flat() ?? [], readable, false);
			texts(delivered.logs, 'log', readable);
			expect(leaks(readable)).toEqual([]);
		},
	);

	it('a delivery signed with the previous secret: no canary either', async () => {
		counted.cases++;
		const delivered = await deliver({
			body: { ...SAMPLE_EVENTS['payout.status_changed'], ...plantedRecord(TRIGGER_CREDENTIAL) },
			webhookSecret: CANARY.webhookSecret,
			previousWebhookSecret: CANARY.previousSecret,
			signWith: CANARY.previousSecret,
			parameters: { options: { includeRawBody: true } },
		});
		expect(delivered.item).toBeDefined();
		const readable: Array<[string, string]> = [];
		outputTexts(delivered.outputs?.flat() ?? [], readable, false);
		texts(delivered.logs, 'log', readable);
		expect(leaks(readable)).toEqual([]);
	});
});

describe('poll trigger', () => {
	const watch = POLL_PROPERTIES.find((property) => property.name === 'watch');
	const lists = (watch?.options ?? []).map((option) => (option as { value: string }).value);

	it.each(lists)('watching %s: no canary in its items, its error or a log line', async (list) => {
		for (const kind of Object.keys(ANSWERS)) {
			counted.cases++;
			serve(ANSWERS[kind]);
			const { context, warnings } = createPollContext({
				parameters: { watch: [list], balanceThreshold: 1_000_000, options: { emitExisting: true } },
				credentials: CREDENTIALS,
			});
			let items: INodeExecutionData[][] | null = null;
			let thrown: unknown;
			try {
				items = (await new CompanyPaymentsPollTrigger().poll!.call(context as IPollFunctions)) as
					| INodeExecutionData[][]
					| null;
			} catch (error) {
				thrown = error;
			}
			const readable: Array<[string, string]> = [];
			outputTexts(items?.flat() ?? [], readable, false);
			if (thrown !== undefined) texts(thrown, 'error', readable);
			texts(warnings, 'log', readable);
			expect({ kind, leaks: leaks(readable) }).toEqual({ kind, leaks: [] });
			nock.cleanAll();
		}
	});
});

describe('credential test', () => {
	it.each(Object.keys(ANSWERS))('answered with %s: no canary in its message', async (kind) => {
		counted.cases++;
		serve(ANSWERS[kind]);
		const result = await runCredentialTest(CREDENTIALS);
		const readable: Array<[string, string]> = [];
		texts(result, 'credential test', readable);
		expect(leaks(readable)).toEqual([]);
	});
});
