// Outside read r21-data, finding 1 (issue 50): a CVV, PIN or password in the service's error
// `details` as a validation entry of a common framework came out in clear in the error's
// errorResponse, context and the Continue On Fail item, while the documented `{name, value}` pair
// was masked. The pair rule (gate/pairs.ts) reads any naming member (a name, a JSON pointer, a
// dotted path, a list of path parts: the last part decides) and any value member.
import fc from 'fast-check';
import type { IDataObject, Logger } from 'n8n-workflow';
import nock from 'nock';

import { gateErrorBody, gateJson, gateLogger } from '../../nodes/shared/gate';
import { namedIn, secretPair } from '../../nodes/shared/gate/learned';
import { API_KEY, BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CVV = '737';
const PIN = '4821';
const PASSWORD = 'Summer2026!';

/** The validation entries of common frameworks, each naming a CVV and a PIN. */
const SHAPES: [string, IDataObject][] = [
	[
		'Spring {field, rejectedValue}',
		{
			errors: [
				{ field: 'cvv', rejectedValue: CVV, defaultMessage: 'must be 4 digits' },
				{ field: 'pin', rejectedValue: PIN, defaultMessage: 'expired' },
			],
		},
	],
	[
		'pydantic {loc, input}',
		{
			detail: [
				{ type: 'string_pattern_mismatch', loc: ['body', 'card', 'cvv'], msg: 'bad', input: CVV },
				{ type: 'x', loc: ['body', 'card', 'pin'], msg: 'bad', input: PIN },
			],
		},
	],
	[
		'ajv {instancePath, data}',
		{
			errors: [
				{ instancePath: '/card/cvv', keyword: 'pattern', message: 'must match', data: CVV },
				{ instancePath: '/card/pin', keyword: 'pattern', message: 'must match', data: PIN },
			],
		},
	],
	[
		'Zod {path, input}',
		{
			issues: [
				{ code: 'custom', path: ['card', 'cvv'], message: 'bad', input: CVV },
				{ code: 'custom', path: ['card', 'pin'], message: 'bad', input: PIN },
			],
		},
	],
	[
		'a dotted field and a bracketed one',
		{
			violations: [
				{ propertyPath: 'card.cvv', invalidValue: CVV },
				{ field: 'cards[0].pin', received: Number(PIN) },
			],
		},
	],
	[
		'a pydantic loc ending in a list index, a JSON pointer ending in one',
		{
			detail: [
				{ loc: ['body', 'cvv', 0], input: CVV },
				{ pointer: '/cards/0/pin/1', actual: PIN },
			],
		},
	],
];

/** Whether `text` shows a secret: CVV and PIN as whole runs of digits, a password anywhere. */
function shows(text: string, secrets: string[] = [CVV, PIN]): string[] {
	return secrets.filter((secret) =>
		/^\d+$/.test(secret)
			? new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(text)
			: text.includes(secret),
	);
}

/** An error as a user reads it: every own property but the node and the stack's frames. */
function errorText(error: Error & IDataObject): string {
	const shown: IDataObject = {};
	for (const key of Object.getOwnPropertyNames(error)) {
		if (key === 'node') continue;
		shown[key] = (error as unknown as IDataObject)[key];
	}
	return JSON.stringify(shown);
}

describe('the pair rule reads validation entries of common frameworks', () => {
	for (const [name, details] of SHAPES) {
		for (const audience of ['user', 'model'] as const) {
			it(`${name}, for the ${audience}`, () => {
				const body = { statusCode: 502, errorCode: 'BRIDGE_ERROR', message: 'no', details };
				const shown = JSON.stringify(gateJson(undefined, body, audience));
				expect(shows(shown)).toEqual([]);
				// What names the value stays: it says what was hidden.
				expect(shown).toMatch(/cvv/);
				expect(shown).toMatch(/pin/);
			});
		}
	}

	it.each([
		[{ loc: ['body', 'password'], input: PASSWORD }],
		[{ field: 'newPassword', rejectedValue: PASSWORD }],
		[{ instancePath: '/credentials/password', data: PASSWORD }],
		[{ path: ['user', 'password'], received: PASSWORD }],
		[{ key: 'password', given: PASSWORD }],
	])('a password: %j', (entry) => {
		for (const audience of ['user', 'model'] as const) {
			const shown = JSON.stringify(gateJson(undefined, { details: { errors: [entry] } }, audience));
			expect(shows(shown, [PASSWORD])).toEqual([]);
		}
		// And learned: the same password elsewhere in the same answer is hidden too.
		expect(namedIn({ details: [entry] }).secrets).toContain(PASSWORD);
	});

	it('a JSON pointer is read with its escapes, a path part list with its indexes', () => {
		expect(secretPair({ instancePath: '/a~1b/cvv', data: '1' })?.spec.kind).toBe('secret');
		expect(secretPair({ loc: ['body', 'pin', 3], input: '1' })?.spec.kind).toBe('secret');
		expect(secretPair({ param: 'card[cvv]', value: '1' })?.spec.kind).toBe('secret');
	});

	it.each([
		[{ field: 'amountRub', rejectedValue: -5, defaultMessage: 'must be positive' }],
		[{ loc: ['body', 'externalId'], input: 'PAYROLL-11', msg: 'duplicate' }],
		[{ instancePath: '/recipientFirstName', data: 'Ivan' }],
		[{ path: ['card', 'status'], received: 'closed' }],
		// A path's last part decides: a CVV's length is no CVV.
		[{ path: ['cvv', 'maxLength'], received: 4 }],
		// A text with spaces is a message, not a name.
		[{ field: 'the cvv is wrong', rejectedValue: '12345' }],
	])('an entry that names no secret is kept exactly: %j', (entry) => {
		const value = { details: { errors: [entry] } };
		expect(gateJson(undefined, value)).toEqual(value);
		expect(secretPair(entry)).toBeUndefined();
	});

	it('generated: any naming member and any value member, in any wrapping, for both readers', () => {
		const secretNames = fc.constantFrom('cvv', 'pin', 'cardPin', 'password', 'apiKey', 'cvc');
		const nameForm = fc.constantFrom('plain', 'pointer', 'dotted', 'parts', 'partsIndex');
		const nameKeys = fc.constantFrom(
			'name',
			'field',
			'key',
			'param',
			'loc',
			'path',
			'instancePath',
			'pointer',
			'property',
			'propertyPath',
		);
		const valueKeys = fc.constantFrom(
			'value',
			'rejectedValue',
			'input',
			'data',
			'received',
			'actual',
			'given',
			'invalidValue',
		);
		const secret = fc.stringMatching(/^[0-9a-f]{24}$/);
		const wrap = fc.array(fc.constantFrom('errors', 'detail', 'details', 'x', '[]'), {
			maxLength: 4,
		});
		const named = (form: string, name: string): unknown => {
			if (form === 'pointer') return `/body/card/${name}`;
			if (form === 'dotted') return `body.card.${name}`;
			if (form === 'parts') return ['body', 'card', name];
			if (form === 'partsIndex') return ['body', name, 0];
			return name;
		};
		fc.assert(
			fc.property(
				secretNames,
				nameForm,
				nameKeys,
				valueKeys,
				secret,
				wrap,
				fc.constantFrom('user', 'model'),
				(name, form, nameKey, valueKey, s, path, audience) => {
					let value: unknown = { [nameKey]: named(form, name), [valueKey]: s, msg: 'bad' };
					for (const step of path) value = step === '[]' ? [value] : { [step]: value };
					const shown = JSON.stringify(
						gateJson(undefined, { statusCode: 400, details: value }, audience as 'user'),
					);
					return !shown.includes(s) && shown.includes(name);
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe('every route that carries the service error body goes through the pair rule', () => {
	const sensitive = {
		resource: 'card',
		operation: 'getSensitiveData',
		cardId: { __rl: true, mode: 'id', value: 'card_1' },
		maskSensitiveData: true,
	};
	const payoutGet = {
		resource: 'payout',
		operation: 'get',
		payoutId: { __rl: true, mode: 'id', value: 'po_1' },
	};
	// No retry: the one answer is the error shown.
	const credentials = {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: API_KEY,
		webhookSecret: '',
		maxRetryWaitSeconds: 0,
	};
	const body = (details: IDataObject) => ({
		statusCode: 502,
		error: 'Bad Gateway',
		errorCode: 'BRIDGE_ERROR',
		message: 'Issuer rejected the card data',
		details,
	});

	for (const [name, details] of SHAPES) {
		it(`${name}: Get Card Number and CVV (a closed record), thrown and as an item`, async () => {
			nock(BASE_URL).get('/cards/card_1/sensitive').reply(502, body(details));
			const error = await runNodeError({ parameters: sensitive, credentials });
			const text = errorText(error);
			expect(text).toMatch(/BRIDGE_ERROR/);
			expect(shows(text)).toEqual([]);

			nock(BASE_URL).get('/cards/card_1/sensitive').reply(502, body(details));
			const { output } = await runNode({
				parameters: sensitive,
				credentials,
				continueOnFail: true,
			});
			expect(output[0].json.errorCode).toBe('BRIDGE_ERROR');
			expect(shows(JSON.stringify(output[0].json))).toEqual([]);
			// The record is closed, its error details too, but a pair's name still says what was hidden.
			expect(JSON.stringify(output[0].json.details)).toMatch(/cvv/);
			expect(JSON.stringify(output[0].json.details)).toMatch(/pin/);
		});

		it(`${name}: Payout Get (an open record), thrown, as an item, and as a tool result`, async () => {
			nock(BASE_URL).get('/payouts/po_1').reply(502, body(details));
			const error = await runNodeError({ parameters: payoutGet, credentials });
			expect(errorText(error)).toMatch(/BRIDGE_ERROR/);
			expect(shows(errorText(error))).toEqual([]);
			// The details are kept, with the name of what was hidden.
			expect(JSON.stringify((error as IDataObject).errorResponse)).toMatch(/cvv/);

			nock(BASE_URL).get('/payouts/po_1').reply(502, body(details));
			const { output } = await runNode({
				parameters: payoutGet,
				credentials,
				continueOnFail: true,
			});
			expect(output[0].json.errorCode).toBe('BRIDGE_ERROR');
			const item = JSON.stringify(output[0].json);
			expect(shows(item)).toEqual([]);
			expect(item).toMatch(/cvv/);

			nock(BASE_URL).get('/payouts/po_1').reply(502, body(details));
			const tool = await runTool({ parameters: payoutGet, credentials });
			expect(JSON.stringify(tool.output)).toMatch(/BRIDGE_ERROR/);
			expect(shows(JSON.stringify(tool.output))).toEqual([]);
		});
	}

	it('details that are themselves one pair, for a closed record', async () => {
		nock(BASE_URL)
			.get('/cards/card_1/sensitive')
			.reply(502, body({ field: 'cvv', rejectedValue: CVV }));
		const { output } = await runNode({ parameters: sensitive, credentials, continueOnFail: true });
		expect(output[0].json.errorCode).toBe('BRIDGE_ERROR');
		expect(shows(JSON.stringify(output[0].json))).toEqual([]);
		expect(output[0].json.details).toEqual({ field: 'cvv', rejectedValue: '•••' });
	});

	it("the transport reads a closed record's error details as a pair before any door does", () => {
		// What the transport keeps (the error's errorResponse, a money outcome's service error) is
		// the body gateErrorBody gave: the pair rule there, not only at the doors after it.
		const operation: IDataObject = { resource: 'card', operation: 'getSensitiveData' };
		const ctx = { getNodeParameter: (name: string) => operation[name] };
		// Values no reading learns as a secret (too short; a date's shape): only the pair rule
		// masks them here.
		for (const [details, secret] of [
			[{ field: 'pin', rejectedValue: '12' }, '"12"'],
			[{ loc: ['body', 'password'], input: '2026-11-29', msg: 'bad' }, '2026-11-29'],
		] as const) {
			const shown = JSON.stringify(
				gateErrorBody(ctx, { statusCode: 502, errorCode: 'BRIDGE_ERROR', details }),
			);
			expect(shown).not.toContain(secret);
			expect(shown).toMatch(/pin|password/);
		}
	});

	it('a password in Member Get Many error details (pydantic), as an item', async () => {
		nock(BASE_URL)
			.get('/members')
			.query(true)
			.reply(400, {
				statusCode: 400,
				errorCode: 'VALIDATION_ERROR',
				message: 'bad',
				details: { detail: [{ loc: ['body', 'password'], input: PASSWORD }] },
			});
		const { output } = await runNode({
			parameters: { resource: 'member', operation: 'getMany', returnAll: false, limit: 5 },
			credentials,
			continueOnFail: true,
		});
		expect(output[0].json.errorCode).toBe('VALIDATION_ERROR');
		expect(output[0].json.details).toEqual({
			detail: [{ loc: ['body', 'password'], input: '[hidden]' }],
		});
		expect(shows(JSON.stringify(output[0].json), [PASSWORD])).toEqual([]);
	});

	it('a log line whose metadata carries the error body', () => {
		const lines: unknown[] = [];
		const record = (...args: unknown[]) => lines.push(args);
		const logger = { debug: record, info: record, warn: record, error: record } as Logger;
		gateLogger({ logger }).error('Company Payments: the service refused', {
			details: { errors: [{ field: 'cvv', rejectedValue: CVV }] },
			body: { detail: [{ loc: ['body', 'password'], input: PASSWORD }] },
		});
		expect(shows(JSON.stringify(lines), [CVV, PASSWORD])).toEqual([]);
	});
});
