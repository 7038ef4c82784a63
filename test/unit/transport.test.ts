import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import nock from 'nock';
import fc from 'fast-check';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import {
	API_KEY,
	BASE_URL,
	keyScope,
	NODE_ID,
	createContext,
	runNode,
	runNodeError,
} from './helpers/n8n';

const ORDER_ID = '7d3c2b1a-1111-4222-8333-944455566677';
const getOrder = { resource: 'order', operation: 'get', orderId: ORDER_ID };

function errorBody(statusCode: number, errorCode: string, message: string, extra: object = {}) {
	return {
		statusCode,
		error: 'Error',
		errorCode,
		message,
		path: `/orders/${ORDER_ID}`,
		timestamp: '2026-11-21T12:00:00Z',
		...extra,
	};
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	expect(nock.pendingMocks()).toEqual([]);
	nock.cleanAll();
});

describe('service errors become NodeApiError with every field of the error body', () => {
	it('401: names the code, explains it, keeps the Russian message, status and request ID', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(401, errorBody(401, 'INVALID_API_KEY', 'Неверный API ключ', { requestId: 'req-401' }));
		const error = await runNodeError({ parameters: getOrder });
		expect(error.constructor.name).toBe('NodeApiError');
		expect(error.message).toBe(
			'INVALID_API_KEY: The API key is unknown or was replaced (company login and "regenerate key" invalidate the old key)',
		);
		// One fact per line in n8n's error panel, which renders the description as HTML.
		expect(String(error.description).split('<br>')).toEqual([
			'Service message: Неверный API ключ',
			'HTTP status: 401',
			'Request ID: req-401',
			`Environment: Staging (${BASE_URL})`,
			'What to do: Put the current key into the credential (after a login or "Regenerate API Key" the old one stops working)',
		]);
		expect(error.description).not.toContain('\n');
		expect(error.httpCode).toBe('401');
	});

	it('403 PERMISSION_DENIED: names the missing permission from required', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(
				403,
				errorBody(403, 'PERMISSION_DENIED', 'Недостаточно прав', {
					error: 'PERMISSION_DENIED',
					required: 'orders.read',
					details: { required: 'orders.read' },
					requestId: 'req-403',
				}),
			);
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe(
			'PERMISSION_DENIED: The API key lacks a permission this operation needs (missing permission orders.read)',
		);
		expect(error.description).toContain('Required permission: orders.read');
		expect(error.description).toContain('Details: {"required":"orders.read"}');
		expect(error.description).toContain('Request ID: req-403');
	});

	it('403 with the permission only in details still names it', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(
				403,
				errorBody(403, 'PERMISSION_DENIED', 'Нет прав', { details: { required: 'orders.read' } }),
			);
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toContain('(missing permission orders.read)');
	});

	it('404: ORDER_NOT_FOUND and the request ID from the X-Request-Id header', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(404, errorBody(404, 'ORDER_NOT_FOUND', 'Заказ не найден'), {
				'X-Request-Id': 'hdr-404',
			});
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe('ORDER_NOT_FOUND: The order does not exist in this company');
		expect(error.description).toContain('Request ID: hdr-404');
	});

	it('409: CONFLICT keeps its details', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(409, errorBody(409, 'CONFLICT', 'Конфликт', { details: { orderId: ORDER_ID } }));
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe(
			'CONFLICT: The request conflicts with the current state of the object',
		);
		expect(error.description).toContain(`Details: {"orderId":"${ORDER_ID}"}`);
	});

	it('validation errors with an array message show every line', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(
				400,
				errorBody(400, 'VALIDATION_ERROR', [
					'id must be a UUID',
					'limit must be positive',
				] as never),
			);
		const error = await runNodeError({ parameters: getOrder });
		expect(error.description).toContain(
			'Service message: id must be a UUID; limit must be positive',
		);
	});

	it('an unknown errorCode is a generic failure of its status, code still shown', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(422, errorBody(422, 'BRAND_NEW_CODE', 'Что-то новое'));
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe(
			'BRAND_NEW_CODE: The service cannot carry out this request in the current state',
		);
	});

	it('5xx with a JSON body', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.times(8)
			.reply(503, errorBody(503, 'SERVICE_UNAVAILABLE', 'Сервис недоступен'));
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe(
			'SERVICE_UNAVAILABLE: The service is temporarily unavailable; retry later',
		);
		expect(error.httpCode).toBe('503');
		// A read is retried (backoff 0.5, 1, 2, 4, 8, 15, 15 s) until the next wait passes 60 s.
		expect(error.description).toContain('Tried 8 times over 45.5 s');
	});

	it('5xx with a non-JSON body (a proxy page) says so', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).times(8).reply(502, '<html>Bad Gateway</html>');
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe('HTTP 502: The service failed to process the request; retry later');
		expect(error.description).toContain('Service message: (not JSON) <html>Bad Gateway</html>');
	});

	it('a 200 answer that is not JSON is an error, not an empty item', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).reply(200, 'OK but not json');
		const error = await runNodeError({ parameters: getOrder });
		expect(error.message).toBe(
			`The service answered GET /orders/${ORDER_ID} with a body that is not JSON`,
		);
	});

	/** A socket error as axios raises it: its config is the authenticated request, key included. */
	function refusedWithRequest() {
		return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), {
			code: 'ECONNREFUSED',
			config: { url: `${BASE_URL}/orders/${ORDER_ID}`, headers: { 'X-API-Key': API_KEY } },
			request: { _header: `GET /orders/${ORDER_ID} HTTP/1.1\r\nX-API-Key: ${API_KEY}\r\n` },
		});
	}

	/** Runs Order → Get with the authenticated request failing with `thrown`. */
	async function failWith(thrown: Error): Promise<NodeApiError> {
		const context = createContext({ parameters: getOrder });
		// As n8n-core's httpRequestWithAuthentication does: the failure wrapped in a NodeApiError.
		context.helpers.httpRequestWithAuthentication = async () => {
			throw new NodeApiError(context.getNode(), thrown as unknown as JsonObject);
		};
		return (await new CompanyPayments().execute.call(context).then(
			() => {
				throw new Error('Expected the node to throw');
			},
			(error: unknown) => error,
		)) as NodeApiError;
	}

	/** Everything n8n keeps of an error: its JSON (message, description, context, cause) and more. */
	function kept(error: NodeApiError): string {
		return JSON.stringify({
			json: error.toJSON?.(),
			errorResponse: error.errorResponse,
			messages: error.messages,
			own: { ...error },
		});
	}

	it('a network failure names the environment and base URL, and never the API key', async () => {
		const error = await failWith(refusedWithRequest());
		expect(error.message).toBe(
			`Could not reach the Staging service at ${BASE_URL}: nothing is listening at this address (connection refused)`,
		);
		expect(error.description).toContain(`GET ${BASE_URL}/orders/${ORDER_ID} got no answer`);
		expect(error.description).toContain('Error code: ECONNREFUSED');
		expect(kept(error)).not.toContain(API_KEY);
	});

	it('the same when n8n-core has wrapped the socket error in its own NodeApiError', async () => {
		const wrapped = new NodeApiError(
			createContext({ parameters: getOrder }).getNode(),
			refusedWithRequest() as unknown as JsonObject,
		);
		const error = await failWith(wrapped);
		expect(error.message).toContain('nothing is listening at this address (connection refused)');
		expect(kept(error)).not.toContain(API_KEY);
	});

	it('no error text carries the API key', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(401, errorBody(401, 'INVALID_API_KEY', 'Неверный ключ'));
		const error = await runNodeError({ parameters: getOrder });
		expect(`${error.message}\n${error.description}`).not.toContain(API_KEY);
	});

	it('a base URL that is not http(s) is refused before any request', async () => {
		const error = await runNodeError({
			parameters: getOrder,
			credentials: { environment: 'production', baseUrl: 'payments.example.com', apiKey: API_KEY },
		});
		expect(error.message).toBe(
			`The credential's Base URL must be an http(s) URL, got "payments.example.com"`,
		);
	});

	it.each([
		[
			'production',
			'http://payments.example.com',
			/Production but the Base URL http:\/\/payments\.example\.com is not https/,
		],
		[
			'production',
			'https://sandbox.payments.example.com',
			/Production but the Base URL .* names "sandbox"/,
		],
		['staging', 'https://prod.payments.example.com', /Staging but the Base URL .* names "prod"/],
	])(
		'Environment %s with Base URL %s is refused before any request',
		async (environment, baseUrl, expected) => {
			const error = await runNodeError({
				parameters: getOrder,
				credentials: { environment, baseUrl, apiKey: API_KEY },
			});
			expect(error.message).toMatch(/^The credential does not fit together: /);
			expect(error.message).toMatch(expected);
		},
	);

	it('a trailing slash on the base URL is dropped', async () => {
		nock(BASE_URL).get(`/orders/${ORDER_ID}`).reply(200, { id: ORDER_ID });
		await runNode({
			parameters: getOrder,
			credentials: { environment: 'production', baseUrl: `${BASE_URL}/`, apiKey: API_KEY },
		});
	});
});

describe('continue on fail', () => {
	it('outputs the error with its service fields as an item and goes on', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(404, errorBody(404, 'ORDER_NOT_FOUND', 'Заказ не найден', { requestId: 'req-1' }));
		nock(BASE_URL).get('/orders/11111111-2222-4333-8444-555555555555').reply(200, { id: 'found' });
		const { output } = await runNode({
			continueOnFail: true,
			parameters: [
				getOrder,
				{ ...getOrder, orderId: '11111111-2222-4333-8444-555555555555' },
				{ ...getOrder, orderId: 'bad' },
			],
		});
		expect(output).toHaveLength(3);
		expect(output[0]).toEqual({
			json: {
				error: 'ORDER_NOT_FOUND: The order does not exist in this company',
				description: `Service message: Заказ не найден\nHTTP status: 404\nRequest ID: req-1\nEnvironment: Staging (${BASE_URL})\nWhat to do: Check the order ID; it may belong to another company or environment`,
				errorCode: 'ORDER_NOT_FOUND',
				httpCode: 404,
				serviceMessage: 'Заказ не найден',
				details: null,
				required: null,
				requestId: 'req-1',
			},
			pairedItem: { item: 0 },
		});
		expect(output[1]).toEqual({ json: { id: 'found' }, pairedItem: { item: 1 } });
		expect(output[2].json.error).toBe('Order ID must be a UUID, got "bad"');
		expect(output[2].pairedItem).toEqual({ item: 2 });
	});

	it('with "Continue (using error output)" the fields travel inside a lone error field, which n8n routes there', async () => {
		nock(BASE_URL)
			.get(`/orders/${ORDER_ID}`)
			.reply(404, errorBody(404, 'ORDER_NOT_FOUND', 'Заказ не найден', { requestId: 'req-2' }));
		const { output } = await runNode({
			continueOnFail: true,
			onError: 'continueErrorOutput',
			parameters: getOrder,
		});
		expect(output).toEqual([
			{
				json: {
					error: {
						message: 'ORDER_NOT_FOUND: The order does not exist in this company',
						description: `Service message: Заказ не найден\nHTTP status: 404\nRequest ID: req-2\nEnvironment: Staging (${BASE_URL})\nWhat to do: Check the order ID; it may belong to another company or environment`,
						errorCode: 'ORDER_NOT_FOUND',
						httpCode: 404,
						serviceMessage: 'Заказ не найден',
						details: null,
						required: null,
						requestId: 'req-2',
					},
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('without it, a failed payment stops the run and says which items went through', async () => {
		const QR = 'https://qr.nspk.ru/AS1?sum=1000';
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(200, { id: '0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11' });
		nock(BASE_URL)
			.post('/orders/accept/0b6a9a52-4f4e-4a8e-9d39-3f1c8f6f2a11')
			.reply(200, () => ({ id: 'paid', createdAt: new Date().toISOString() }));
		nock(BASE_URL)
			.post('/orders/prepare')
			.reply(422, errorBody(422, 'INSUFFICIENT_BALANCE', 'Недостаточно средств'));
		const error = await runNodeError({
			parameters: [
				{ resource: 'order', operation: 'pay', qrCode: QR },
				{ resource: 'order', operation: 'pay', qrCode: QR },
				{ resource: 'order', operation: 'pay', qrCode: QR },
			],
		});
		expect(error.message).toBe(
			'INSUFFICIENT_BALANCE: The company balance is too low for this payment',
		);
		expect(error.description).toContain(
			'Item 0 was already processed by the service before this failure',
		);
		expect((error.context as { itemIndex: number }).itemIndex).toBe(1);
	});
});

describe('idempotency key', () => {
	// Card Request's key is per attempt (Accept Quote's follows the quote: see order.test.ts).
	const request = { resource: 'card', operation: 'request' };

	async function keysSent(options: Parameters<typeof runNode>[0], count = 1): Promise<string[]> {
		const keys: string[] = [];
		nock(BASE_URL)
			.post('/cards/request')
			.times(count)
			.reply(function () {
				keys.push(String(this.req.headers['idempotency-key']));
				// Each attempt's own request record, by which it is judged (r18-money F1).
				const request = { id: `req_${keys.length}`, createdAt: new Date().toISOString() };
				return [200, { status: 'assigned', card: { id: 'card_1' }, request }];
			});
		await runNode(options);
		return keys;
	}

	it('stays the same when n8n retries the same item of the same execution', async () => {
		const first = await keysSent({ parameters: request, executionId: '77' });
		const retry = await keysSent({ parameters: request, executionId: '77' });
		expect(retry).toEqual(first);
		expect(first[0]).toBe(`pay:${keyScope()}:77:${NODE_ID}:0:0`);
	});

	it('differs on another n8n instance or in another workflow with the same execution and node IDs', async () => {
		// Execution IDs restart with every n8n database and an exported workflow keeps its node
		// IDs: the same execution 77 of the same node elsewhere is a different payment.
		const here = await keysSent({ parameters: request, executionId: '77' });
		const otherInstance = await keysSent({
			parameters: request,
			executionId: '77',
			instanceId: 'b'.repeat(64),
		});
		const otherWorkflow = await keysSent({
			parameters: request,
			executionId: '77',
			workflowId: 'wf-imported',
		});
		const all = [...here, ...otherInstance, ...otherWorkflow];
		expect(new Set(all).size).toBe(3);
	});

	it('is the same on a re-run whose earlier run saved nothing (a queue worker that died mid-write)', async () => {
		// Issue 44.3: the key reads nothing a run stores. A worker that died never saved its
		// execution's custom data; the worker that runs the job again starts from an empty one.
		const died = await keysSent({ parameters: request, executionId: '9', customData: new Map() });
		const rerun = await keysSent({ parameters: request, executionId: '9', customData: new Map() });
		const unavailable = await keysSent({
			parameters: request,
			executionId: '9',
			customData: undefined,
		});
		expect(rerun).toEqual(died);
		expect(unavailable).toEqual(died);
	});

	it('still derives a stable key when the execution custom data is full', async () => {
		const full = new Map(Array.from({ length: 10 }, (_, index) => [`user${index}`, 'x']));
		const first = await keysSent({ parameters: request, executionId: '5', customData: full });
		const retry = await keysSent({ parameters: request, executionId: '5', customData: full });
		expect(retry).toEqual(first);
		expect(full.size).toBe(10);
	});

	it('property: distinct (instance, workflow, execution, node, run, item) give distinct keys; the same gives the same', async () => {
		const call = fc.record({
			instanceId: fc.constantFrom('a'.repeat(64), 'b'.repeat(64)),
			workflowId: fc.constantFrom('wf-1', 'wf-2'),
			executionId: fc.constantFrom('1', '2'),
			nodeId: fc.constantFrom(NODE_ID, 'another-node'),
			runIndex: fc.constantFrom(0, 1),
		});
		await fc.assert(
			fc.asyncProperty(call, call, async (a, b) => {
				const [keyA] = await keysSent({ parameters: request, ...a });
				const [keyB] = await keysSent({ parameters: request, ...b });
				const same = JSON.stringify(a) === JSON.stringify(b);
				expect(keyA === keyB).toBe(same);
			}),
			{ numRuns: 40 },
		);
	}, 30_000);

	it('differs between items, executions, runs of the node in a loop, and nodes', async () => {
		const twoItems = await keysSent({ parameters: [request, request], executionId: '77' }, 2);
		const otherExecution = await keysSent({ parameters: request, executionId: '78' });
		const secondRun = await keysSent({ parameters: request, executionId: '77', runIndex: 1 });
		const otherNode = await keysSent({
			parameters: request,
			executionId: '77',
			nodeId: 'another-node',
		});
		const all = [...twoItems, ...otherExecution, ...secondRun, ...otherNode];
		expect(new Set(all).size).toBe(all.length);
	});

	it('is random (never shared) when the execution has no ID', async () => {
		const a = await keysSent({ parameters: request, executionId: undefined });
		const b = await keysSent({ parameters: request, executionId: undefined });
		expect(a[0]).toMatch(/^pay:random:[0-9a-f-]{36}$/);
		expect(a[0]).not.toBe(b[0]);
	});

	it('refuses a user key with spaces or control characters', async () => {
		const error = await runNodeError({ parameters: { ...request, idempotencyKey: 'two words' } });
		expect(error.message).toBe(
			'Idempotency Key must be printable ASCII without spaces, got "two words"',
		);
	});
});

describe('the credential is read once per node run', () => {
	it('one read for every item and page; every request goes through httpRequestWithAuthentication, handed that read', async () => {
		nock(BASE_URL)
			.get('/wallets/deposits')
			.query(true)
			.times(6)
			.reply(function (uri) {
				const offset = Number(new URL(uri, BASE_URL).searchParams.get('offset'));
				const records = Array.from({ length: Math.min(100, 250 - offset) }, (_, index) => ({
					id: `dep-${offset + index}`,
				}));
				return [200, { deposits: records, total: 250 }];
			});
		const parameters = { resource: 'companyWallet', operation: 'getDeposits', returnAll: true };
		const context = createContext({ parameters: [parameters, parameters] });
		const credentials = await context.getCredentials('companyPaymentsApi');
		let reads = 0;
		context.getCredentials = (async () => {
			reads++;
			return credentials;
		}) as typeof context.getCredentials;
		context.helpers.httpRequest = async function () {
			throw new Error("an authenticated call went around n8n's authentication helper");
		} as typeof context.helpers.httpRequest;
		const result = await new CompanyPayments().execute.call(context);
		expect(result[0]).toHaveLength(500);
		expect(context.authenticatedCalls).toHaveLength(6);
		expect(context.authenticatedCalls).toEqual(
			Array(6).fill({ credentialsType: 'companyPaymentsApi', handedCredential: true }),
		);
		expect(
			context.requests.every(
				(request) =>
					(request.headers as Record<string, unknown>)['X-API-Key'] === credentials.apiKey,
			),
		).toBe(true);
		expect(reads).toBe(1);
	});
});
