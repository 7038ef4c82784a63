import { createHmac } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { CompanyPaymentsTrigger } from '../../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';
import { API_KEY, BASE_URL, httpHelpers, readPath } from './n8n';

export { API_KEY, BASE_URL };

/** Secrets in the form the service generates (whsec_ + 48 hex), marked as test dummies. */
export const SECRET_DUMMY = 'whsec_dummy0123456789abcdef0123456789abcdef01234567';
export const OLD_SECRET_DUMMY = 'whsec_dummyfedcba9876543210fedcba9876543210fedcba98';
export const ROTATED_SECRET_DUMMY = 'whsec_dummy00112233445566778899aabbccddeeff00112233';

export const TRIGGER_URL =
	'https://n8n.example.com/webhook/4b1c2d3e-0000-4000-8000-000000000001/webhook';
export const TEST_TRIGGER_URL =
	'https://n8n.example.com/webhook-test/4b1c2d3e-0000-4000-8000-000000000001/webhook';

/** One sample body per documented event kind (the README shows the same samples). */
export const SAMPLE_EVENTS: Record<string, IDataObject> = {
	'order.status_changed': {
		event: 'order.status_changed',
		orderId: '7d3c2b1a-1111-4222-8333-944455566677',
		walletOrderId: 'wo_58213',
		status: 'success',
		amountUsdt: 15.71,
		amountRub: 1500,
		completedAt: '2026-11-21T12:03:10.000Z',
		failureReason: null,
		createdAt: '2026-11-21T12:00:00.000Z',
	},
	'deposit.created': {
		event: 'deposit.created',
		depositId: 'dep_0192',
		txHash: 'a3f1c9e2b7d4',
		walletAddress: 'TXYZexampleCompanyWalletAddr01',
		fromAddress: 'TABCexampleSenderAddress000001',
		amount: 250,
		tokenSymbol: 'USDT',
		status: 'new',
		createdAt: '2026-11-21T12:00:00.000Z',
		updatedAt: '2026-11-21T12:00:00.000Z',
	},
	'deposit.completed': {
		event: 'deposit.completed',
		depositId: 'dep_0192',
		txHash: 'a3f1c9e2b7d4',
		walletAddress: 'TXYZexampleUserWalletAddress01',
		amount: 250,
		status: 'completed',
		sweepTxHash: 'b8e2d0f1a9c3',
		createdAt: '2026-11-21T12:00:00.000Z',
		updatedAt: '2026-11-21T12:05:00.000Z',
		externalId: 'user-42',
	},
	'deposit.aml_failed': {
		event: 'deposit.aml_failed',
		depositId: 'dep_0193',
		txHash: 'c4d5e6f7a8b9',
		amount: 990,
		status: 'aml_failed',
		amlCheckId: 'aml_7781',
		amlResult: 'high_risk',
		error: 'AML risk score above threshold',
		createdAt: '2026-11-21T12:10:00.000Z',
	},
	'payout.status_changed': {
		event: 'payout.status_changed',
		payoutId: 'po_3301',
		externalId: 'invoice-2026-118',
		status: 'fail',
		amountRub: 5000,
		chargedUsdt: 52.4,
		rate: 95.42,
		requisiteType: 'card',
		requisite: '220070******1234',
		bankId: null,
		bank: null,
		failReason: 'cancelled_by_merchant',
		comment: null,
		refunded: true,
		disputeStatus: null,
		disputeResolution: null,
		completedAt: '2026-11-21T12:20:00.000Z',
		createdAt: '2026-11-21T12:15:00.000Z',
		updatedAt: '2026-11-21T12:20:00.000Z',
	},
	'payout.recharged': {
		event: 'payout.recharged',
		payoutId: 'po_3301',
		externalId: 'invoice-2026-118',
		status: 'success',
		amountRub: 5000,
		chargedUsdt: 52.4,
		rate: 95.42,
		requisiteType: 'card',
		requisite: '220070******1234',
		bankId: null,
		bank: null,
		failReason: null,
		comment: null,
		refunded: false,
		disputeStatus: 'resolved',
		disputeResolution: 'trader_won',
		completedAt: '2026-11-22T09:00:00.000Z',
		createdAt: '2026-11-21T12:15:00.000Z',
		updatedAt: '2026-11-22T09:00:00.000Z',
	},
	'card.assigned': {
		event: 'card.assigned',
		externalId: 'card-for-user-42',
	},
};

export function hmacHex(body: string | Buffer, key: string): string {
	return createHmac('sha256', key).update(body).digest('hex');
}

export class FakeResponse {
	statusCode = 200;

	headers: Record<string, string> = {};

	body: string | undefined;

	ended = false;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	end(body?: string): this {
		this.body = body;
		this.ended = true;
		return this;
	}
}

export interface LogEntry {
	level: string;
	message: string;
}

function createLogger(logs: LogEntry[]) {
	const log = (level: string) => (message: string) => {
		logs.push({ level, message });
	};
	return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

let nodeCounter = 0;

/** A fresh node ID, so each test has its own deduplication store and secret history. */
export function freshNodeId(): string {
	nodeCounter += 1;
	return `trigger-node-${nodeCounter}`;
}

function makeNode(
	id: string,
	parameters: IDataObject,
	{ credentialId, typeVersion = 1 }: { credentialId?: string; typeVersion?: number } = {},
): INode {
	return {
		id,
		name: 'Company Payments Trigger',
		type: 'n8n-nodes-company-payments.companyPaymentsTrigger',
		typeVersion,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		...(credentialId === undefined
			? {}
			: { credentials: { companyPaymentsApi: { id: credentialId, name: 'Payments' } } }),
	};
}

export interface DeliveryOptions {
	/** The body (raw bytes as the service sent them). An object is sent as compact JSON. */
	body?: string | Buffer | IDataObject;
	/** What n8n parsed (getBodyData); defaults to JSON.parse of the raw body, or {}. */
	parsed?: unknown;
	/** Signing key; the signature header is computed with it unless `signature` is given. */
	signWith?: string;
	/** Explicit X-Service-Signature value; null leaves the header out. */
	signature?: string | null;
	/** X-Service-Delivery-Id; null leaves it out; undefined makes a fresh one. */
	deliveryId?: string | null;
	headers?: Record<string, string>;
	/** Node parameters (events, routeByEvent, options, ...). */
	parameters?: IDataObject;
	/** The credential's Webhook Secret; an Error makes getCredentials throw. */
	webhookSecret?: string | Error;
	/** Further credentials by type (e.g. `redis` for the queue-mode companion's trigger). */
	credentials?: Record<string, IDataObject>;
	/** The credential's Previous Webhook Secret (left out when undefined). */
	previousWebhookSecret?: string;
	staticData?: IDataObject;
	nodeId?: string;
	workflowId?: string;
	mode?: 'webhook' | 'manual';
	/** Leave rawBody undefined (a request n8n kept no raw body for). */
	noRawBody?: boolean;
	/**
	 * Leave rawBody undefined but give the request n8n's `readRawBody`, which fills it (what a
	 * typeVersion-2 node gets for a content type n8n does not parse); an Error makes it throw.
	 */
	lazyRawBody?: true | Error;
	/** The credential the node names (its id is part of the secret cache's key). */
	credentialId?: string;
	/**
	 * Counts the credential reads of the verification (the read a company profile request makes
	 * for its API key is not counted here: see `profileRequests`).
	 */
	reads?: { count: number };
	/**
	 * The company profile GET /auth/company/profile answers (the trigger reads the company's
	 * current webhook secret there when no secret it holds verifies a delivery). Without it the
	 * service answers 401 INVALID_API_KEY.
	 */
	profile?: IDataObject;
	/** Collects the requests the trigger sent to the service. */
	profileRequests?: IHttpRequestOptions[];
	typeVersion?: number;
	instanceId?: string;
}

export interface DeliveryResult {
	result: IWebhookResponseData;
	response: FakeResponse;
	logs: LogEntry[];
	/** Items per output (empty arrays for outputs that got nothing); undefined when none ran. */
	outputs: INodeExecutionData[][] | undefined;
	/** The JSON of the single item, wherever it was routed. */
	item: IDataObject | undefined;
	/** The node's static data after the call (what n8n saves). */
	staticData: IDataObject;
}

let deliveryCounter = 0;

export const DEFAULT_PARAMETERS: IDataObject = {
	events: ['*'],
	routeByEvent: false,
	registerWebhook: false,
	options: {},
};

/** Sends one delivery to the trigger's webhook() with mocked webhook functions. */
export async function deliver(
	options: DeliveryOptions = {},
	nodeType: INodeType = new CompanyPaymentsTrigger(),
): Promise<DeliveryResult> {
	const bodyInput = options.body ?? SAMPLE_EVENTS['order.status_changed'];
	const raw: string | Buffer =
		typeof bodyInput === 'string' || Buffer.isBuffer(bodyInput)
			? bodyInput
			: JSON.stringify(bodyInput);
	let parsed = options.parsed;
	if (!('parsed' in options)) {
		try {
			parsed = JSON.parse(raw.toString());
		} catch {
			parsed = {};
		}
	}
	const secret = options.webhookSecret ?? SECRET_DUMMY;
	const signWith = options.signWith ?? (typeof secret === 'string' ? secret : '');
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	const signature = options.signature === undefined ? hmacHex(raw, signWith) : options.signature;
	if (signature !== null) headers['x-service-signature'] = signature;
	if (options.deliveryId !== null) {
		deliveryCounter += 1;
		headers['x-service-delivery-id'] = options.deliveryId ?? `delivery-${deliveryCounter}`;
	}
	Object.assign(headers, options.headers);
	const parameters = { ...DEFAULT_PARAMETERS, ...options.parameters };
	const node = makeNode(options.nodeId ?? freshNodeId(), parameters, {
		credentialId: options.credentialId,
		typeVersion: options.typeVersion,
	});
	const staticData = options.staticData ?? {};
	const response = new FakeResponse();
	const logs: LogEntry[] = [];
	const request: IDataObject = {
		headers,
		body: parsed as IDataObject,
		rawBody: options.noRawBody || options.lazyRawBody ? undefined : raw,
	};
	const lazy = options.lazyRawBody;
	if (lazy !== undefined) {
		request.readRawBody = async () => {
			if (lazy instanceof Error) throw lazy;
			request.rawBody = Buffer.isBuffer(raw) ? raw : Buffer.from(raw, 'utf8');
		};
	}
	const context = {
		logger: createLogger(logs),
		getNode: () => node,
		getMode: () => options.mode ?? 'webhook',
		getWorkflow: () => ({ id: options.workflowId ?? 'wf-1', name: 'Payments', active: true }),
		getWorkflowStaticData: () => staticData,
		getHeaderData: () => headers,
		getBodyData: () => parsed,
		getRequestObject: () => request,
		getResponseObject: () => response,
		getInstanceId: () => options.instanceId ?? 'instance-1',
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = readPath(parameters, name);
			return value !== undefined ? value : fallback;
		},
		getCredentials: async (type?: string, ...byRequest: unknown[]) => {
			if (type !== undefined && options.credentials?.[type]) return options.credentials[type];
			if (options.reads && byRequest.length === 0) options.reads.count += 1;
			if (secret instanceof Error) throw secret;
			return {
				baseUrl: BASE_URL,
				apiKey: API_KEY,
				webhookSecret: secret,
				...(options.previousWebhookSecret === undefined
					? {}
					: { previousWebhookSecret: options.previousWebhookSecret }),
			};
		},
	};
	Object.assign(context, {
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => {
				options.profileRequests?.push(request);
				const ok = options.profile !== undefined && request.method === 'GET';
				return {
					statusCode: ok ? 200 : 401,
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(
						ok
							? options.profile
							: { statusCode: 401, errorCode: 'INVALID_API_KEY', message: 'Invalid API key' },
					),
				};
			},
		},
	});
	const result = await nodeType.webhook!.call(context as unknown as IWebhookFunctions);
	const outputs = result.workflowData;
	const item = outputs?.flat()[0]?.json;
	return { result, response, logs, outputs, item, staticData };
}

/** Simulates n8n saving the static data to the database and loading it for the next request. */
export function roundTrip(staticData: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(staticData)) as IDataObject;
}

export interface HookOptions {
	parameters?: IDataObject;
	staticData?: IDataObject;
	webhookSecret?: string;
	mode?: 'trigger' | 'manual';
	webhookUrl?: string;
	nodeId?: string;
	/** The n8n credential's ID on the node (none by default). */
	credentialId?: string;
	/** This n8n instance's ID (getInstanceId). */
	instanceId?: string;
}

export interface HookContext extends IHookFunctions {
	requests: IHttpRequestOptions[];
	logs: LogEntry[];
	staticData: IDataObject;
}

/** Mocked hook functions for checkExists/create/delete; HTTP goes through nock. */
export function createHookContext(options: HookOptions = {}): HookContext {
	const parameters = { ...DEFAULT_PARAMETERS, registerWebhook: true, ...options.parameters };
	const node = makeNode(options.nodeId ?? freshNodeId(), parameters, {
		credentialId: options.credentialId,
	});
	const credentials: ICredentialDataDecryptedObject = {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: API_KEY,
		webhookSecret: options.webhookSecret ?? SECRET_DUMMY,
	};
	const requests: IHttpRequestOptions[] = [];
	const logs: LogEntry[] = [];
	const staticData = options.staticData ?? {};
	const context = {
		requests,
		logs,
		staticData,
		logger: createLogger(logs),
		getNode: () => node,
		getMode: () => options.mode ?? 'trigger',
		getActivationMode: () => 'activate',
		getInstanceId: () => options.instanceId ?? 'instance-1',
		getWorkflow: () => ({ id: 'wf-1', name: 'Payments', active: true }),
		getWorkflowStaticData: () => staticData,
		getNodeWebhookUrl: () =>
			options.webhookUrl ?? (options.mode === 'manual' ? TEST_TRIGGER_URL : TRIGGER_URL),
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = readPath(parameters, name);
			return value !== undefined ? value : fallback;
		},
		getCredentials: async () => credentials,
		helpers: httpHelpers(requests, credentials),
	};
	return context as unknown as HookContext;
}

type HookName = 'checkExists' | 'create' | 'delete';

/** Runs one webhook lifecycle method of the trigger. */
export async function runHook(
	name: HookName,
	context: HookContext,
	nodeType: INodeType = new CompanyPaymentsTrigger(),
): Promise<boolean> {
	const method = nodeType.webhookMethods?.default?.[name];
	if (!method) throw new Error(`The trigger has no ${name}`);
	return await method.call(context);
}

/** Runs a lifecycle method and returns the error it throws (fails the test if it does not). */
export async function runHookError(
	name: HookName,
	context: HookContext,
): Promise<Error & IDataObject> {
	const outcome = await runHook(name, context).then(
		() => undefined,
		(error: unknown) => error as Error & IDataObject,
	);
	if (!outcome) throw new Error(`Expected ${name} to throw`);
	return outcome;
}
