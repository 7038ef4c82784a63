// Outside read r22-data (issue 50): gaps in the pair rule (gate/pairs.ts).
// F1: pairs spelled by other frameworks leaked their value: FluentValidation
//     {propertyName, attemptedValue}, Symfony {propertyPath, parameters: {"{{ value }}": …}}, Go
//     Fiber {FailedField, Tag, Value}, Go structs {Field, Value}, ASP.NET ModelState
//     {Key, Value: {AttemptedValue, RawValue}}: members matched without case or separators, a
//     value member holding an object masked leaf by leaf.
// F2: path spellings: JSONPath `$['card']['cvv']`, ajv v6 `.card['pin']`, a pydantic v2 loc ending
//     in a validator tag (`function-after[check_cvv(), str]`).
// F3: over-masking: a Spring body's field name learned as a secret through `codes`
//     (["cardRequest.cvv","cvv"] read as a list-of-two pair), and a `key` member that names a
//     field (Joi `context: {label, key}`, `{key, message}`) masked as an API key.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { gateJson } from '../../nodes/shared/gate';
import { namedIn, secretPair } from '../../nodes/shared/gate/learned';
import { BASE_URL, API_KEY, runNode, runNodeError, runTool } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const CVV = '7391';
const PIN = '482193';

function shows(text: string, secrets: string[] = [CVV, PIN]): string[] {
	return secrets.filter((secret) => new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(text));
}

const wrap = (details: unknown) => ({
	statusCode: 422,
	errorCode: 'VALIDATION_ERROR',
	message: 'Validation failed',
	details,
});

/** F1 and F2: entries whose CVV and PIN must be hidden, their names kept. */
const LEAKS: [string, IDataObject, string[]][] = [
	[
		'FluentValidation {propertyName, attemptedValue}',
		{
			errors: [
				{
					propertyName: 'Card.Cvv',
					errorMessage: "'Cvv' must be 3 characters.",
					attemptedValue: CVV,
				},
				{ propertyName: 'Card.Pin', errorMessage: "'Pin' is not valid.", attemptedValue: PIN },
			],
		},
		['Card.Cvv', 'Card.Pin'],
	],
	[
		'snake and Pascal spellings {property_name, attempted_value}, {PropertyName, AttemptedValue}',
		{
			errors: [
				{ property_name: 'cvv', attempted_value: CVV },
				{ PropertyName: 'Pin', AttemptedValue: PIN },
			],
		},
		['cvv', 'Pin'],
	],
	[
		'Symfony {propertyPath, parameters: {"{{ value }}"}}',
		{
			violations: [
				{
					propertyPath: 'card.cvv',
					title: 'This value should have exactly 3 characters.',
					parameters: { '{{ value }}': `"${CVV}"`, '{{ limit }}': '3' },
				},
				{ propertyPath: 'card.pin', parameters: { '{{ value }}': `"${PIN}"` } },
			],
		},
		['card.cvv', 'card.pin', '{{ limit }}'],
	],
	[
		'Go Fiber {FailedField, Tag, Value}, Go {Field, Value}',
		{
			errors: [
				{ Error: true, FailedField: 'CardRequest.Pin', Tag: 'len', Value: PIN },
				{ Field: 'Cvv', Tag: 'len', Value: CVV },
			],
		},
		['CardRequest.Pin', 'Cvv'],
	],
	[
		'ASP.NET ModelState {Key, Value: {AttemptedValue, RawValue}}',
		{
			errors: [
				{
					Key: 'Card.Cvv',
					Value: { AttemptedValue: CVV, RawValue: [CVV], Errors: [], ValidationState: 1 },
				},
				{ Key: 'Card.Pin', Value: { AttemptedValue: PIN, RawValue: PIN } },
			],
		},
		['Card.Cvv', 'Card.Pin'],
	],
	[
		"JSONPath $['card']['cvv'], ajv v6 .card['pin']",
		{
			errors: [
				{ path: "$['card']['cvv']", message: 'must match pattern', value: CVV },
				{ dataPath: ".card['pin']", message: 'should match pattern', data: PIN },
				{ path: '$.card["cvv"]', value: CVV },
			],
		},
		["$['card']['cvv']", "['pin']"],
	],
	[
		'pydantic v2 loc ending in a validator tag',
		{
			detail: [
				{
					type: 'value_error',
					loc: ['body', 'card', 'cvv', 'function-after[check_cvv(), str]'],
					msg: 'Value error, bad cvv',
					input: CVV,
				},
				{ type: 'x', loc: ['body', 'card', 'pin', 'constrained-str'], msg: 'bad', input: PIN },
			],
		},
		['function-after[check_cvv(), str]', 'constrained-str'],
	],
];

describe('F1, F2: other frameworks’ pairs are read as pairs', () => {
	for (const [name, details, names] of LEAKS) {
		for (const audience of ['user', 'model'] as const) {
			it(`${name}, for the ${audience}`, () => {
				const shown = JSON.stringify(gateJson(undefined, wrap(details), audience));
				expect(shows(shown)).toEqual([]);
				for (const kept of names) expect(shown).toContain(JSON.stringify(kept).slice(1, -1));
			});
		}
	}

	it('a value member holding an object has every scalar masked, its names kept', () => {
		const entry = { Key: 'Card.Cvv', Value: { AttemptedValue: CVV, RawValue: [CVV, 7391] } };
		const shown = gateJson(undefined, { details: { errors: [entry] } }) as IDataObject;
		expect(JSON.stringify(shown)).not.toMatch(/7391/);
		expect(JSON.stringify(shown)).toContain('"Key":"Card.Cvv"');
		expect(JSON.stringify(shown)).toContain('"AttemptedValue"');
	});

	it('members are matched without case and separators, and learned', () => {
		for (const entry of [
			{ PROPERTY_NAME: 'cvv', Attempted_Value: CVV },
			{ 'field-name': 'pin', 'rejected-value': CVV },
			{ FIELD: 'cvv', VALUE: CVV },
		]) {
			expect(secretPair(entry)?.spec.kind).toBe('secret');
			expect(namedIn({ details: [entry] }).secrets).toContain(CVV);
		}
		expect(
			namedIn({ v: [{ propertyPath: 'pin', parameters: { '{{ value }}': PIN } }] }).secrets,
		).toContain(PIN);
	});

	it('generated: any spelling of a naming and a value member, for both readers', () => {
		const spell = (word: string[]) =>
			fc.constantFrom(
				word.join(''),
				word.join('_'),
				word.map((w) => w[0].toUpperCase() + w.slice(1)).join(''),
				word.join('_').toUpperCase(),
				word.join('-'),
			);
		const nameKey = fc.oneof(
			spell(['property', 'name']),
			spell(['field']),
			spell(['failed', 'field']),
			spell(['key']),
			spell(['property', 'path']),
		);
		const valueKey = fc.oneof(
			spell(['attempted', 'value']),
			spell(['value']),
			spell(['raw', 'value']),
			spell(['rejected', 'value']),
		);
		const path = fc.constantFrom(
			'cvv',
			'Card.Cvv',
			"$['card']['pin']",
			".card['cvv']",
			'card[pin]',
		);
		const holder = fc.constantFrom('scalar', 'object', 'list');
		fc.assert(
			fc.property(
				nameKey,
				valueKey,
				path,
				holder,
				fc.stringMatching(/^[0-9a-f]{12}$/),
				fc.constantFrom('user', 'model'),
				(n, v, p, h, secret, audience) => {
					const held = h === 'scalar' ? secret : h === 'list' ? [secret] : { RawValue: secret };
					const body = wrap({ errors: [{ [n]: p, [v]: held, Message: 'bad' }] });
					const shown = JSON.stringify(gateJson(undefined, body, audience as 'user'));
					return !shown.includes(secret) && shown.includes(JSON.stringify(p).slice(1, -1));
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe('F3: names stay names', () => {
	const spring = {
		timestamp: '2026-11-29T10:00:00.000+00:00',
		status: 400,
		error: 'Bad Request',
		path: '/cards/requests',
		errors: [
			{
				codes: ['Size.cardRequest.cvv', 'Size.cvv', 'Size.java.lang.String', 'Size'],
				arguments: [
					{
						codes: ['cardRequest.cvv', 'cvv'],
						arguments: null,
						defaultMessage: 'cvv',
						code: 'cvv',
					},
					4,
					3,
				],
				defaultMessage: 'size must be between 3 and 4',
				objectName: 'cardRequest',
				field: 'cvv',
				rejectedValue: '12',
				bindingFailure: false,
				code: 'Size',
			},
		],
	};

	it("Spring's 400 body: only the rejected value goes", () => {
		expect(namedIn(spring).secrets).toEqual([]);
		for (const audience of ['user', 'model'] as const) {
			const shown = gateJson(undefined, spring, audience) as IDataObject;
			const errors = shown.errors as IDataObject[];
			expect(errors[0].rejectedValue).not.toBe('12');
			expect({ ...errors[0], rejectedValue: '12' }).toEqual(spring.errors[0]);
		}
	});

	it('a list of two naming the same field twice is names, not a pair', () => {
		expect(secretPair(['cardRequest.cvv', 'cvv'])).toBeUndefined();
		expect(secretPair(['cardPin', '7390'])?.spec.kind).toBe('secret');
	});

	it.each([
		[
			'Joi context {label, key}',
			{
				message: '"externalId" is required',
				details: {
					details: [
						{
							message: '"externalId" is required',
							path: ['externalId'],
							type: 'any.required',
							context: { label: 'externalId', key: 'externalId' },
						},
					],
				},
			},
		],
		['{key, message}', { details: { errors: [{ key: 'Region', message: 'must not be empty' }] } }],
		[
			'{Key, ErrorMessage}',
			{ details: { errors: [{ Key: 'Card.Holder', ErrorMessage: 'required' }] } },
		],
	])('a key member naming a field is shown: %s', (_name, body) => {
		expect(namedIn(body).secrets).toEqual([]);
		for (const audience of ['user', 'model'] as const) {
			expect(gateJson(undefined, body, audience)).toEqual(body);
		}
	});

	it('a word under `key` with nothing beside it that speaks of a field stays a secret', () => {
		// A key's record (`{keyId, key}`), not a validation entry: the word may be a pass phrase.
		for (const body of [
			{ keyId: 'k1', key: 'BlueHorseStaple', createdAt: '2026-11-29T10:00:00Z' },
			{ id: 'k2', label: 'CI deploys', key: 'BlueHorseStaple' },
		]) {
			for (const audience of ['user', 'model'] as const) {
				expect(JSON.stringify(gateJson(undefined, body, audience))).not.toContain(
					'BlueHorseStaple',
				);
			}
			expect(namedIn(body).secrets).toContain('BlueHorseStaple');
		}
	});

	it('a real key under `key` beside a message is still masked and learned', () => {
		for (const key of [
			'cp_live_Zx9Qw3Er7Ty1Ui5Op2As8Df4',
			['mk', '9f8e7d6c5b4a39281706'].join('_'),
			'QWERTYUIOPASDFGHJKLZXCVB',
			'aBcDeFgHiJkLmNoPqRsTuVwX',
		]) {
			const body = { details: { errors: [{ key, message: 'this key is revoked' }] } };
			for (const audience of ['user', 'model'] as const) {
				expect([key, JSON.stringify(gateJson(undefined, body, audience)).includes(key)]).toEqual([
					key,
					false,
				]);
			}
			expect(namedIn(body).secrets).toContain(key);
		}
	});
});

describe('every door, through the node', () => {
	const credentials = {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: API_KEY,
		webhookSecret: '',
		maxRetryWaitSeconds: 0,
	};
	const params = { resource: 'companyWallet', operation: 'getBalance' };
	const fluent = wrap({
		errors: [
			{
				propertyName: 'Card.Cvv',
				errorMessage: "'Cvv' must be 3 characters.",
				attemptedValue: CVV,
			},
			{ FailedField: 'CardRequest.Pin', Tag: 'len', Value: PIN },
		],
	});

	it('thrown, as an item, and as the model’s tool result (whatToDo too)', async () => {
		nock(BASE_URL).get('/wallets/balance').reply(422, fluent);
		const error = await runNodeError({ parameters: params, credentials });
		const text = JSON.stringify({ ...error, message: error.message });
		expect(text).toMatch(/Card\.Cvv/);
		expect(shows(text)).toEqual([]);

		nock(BASE_URL).get('/wallets/balance').reply(422, fluent);
		const { output } = await runNode({ parameters: params, credentials, continueOnFail: true });
		expect(output[0].json.errorCode).toBe('VALIDATION_ERROR');
		expect(shows(JSON.stringify(output[0].json))).toEqual([]);

		nock(BASE_URL).get('/wallets/balance').reply(422, fluent);
		const tool = await runTool({ parameters: params, credentials });
		const model = JSON.stringify(tool.output);
		expect(model).toMatch(/VALIDATION_ERROR/);
		expect(shows(model)).toEqual([]);
	});

	it('Joi: the thrown error names the missing field', async () => {
		const body = {
			statusCode: 400,
			errorCode: 'VALIDATION_ERROR',
			message: '"externalId" is required',
			details: {
				details: [
					{
						message: '"externalId" is required',
						path: ['externalId'],
						context: { label: 'externalId', key: 'externalId' },
					},
				],
			},
		};
		nock(BASE_URL).get('/wallets/balance').reply(400, body);
		const { output } = await runNode({ parameters: params, credentials, continueOnFail: true });
		expect(output[0].json.details).toEqual(body.details);
		expect(JSON.stringify(output[0].json)).not.toContain('[hidden]');
	});
});
