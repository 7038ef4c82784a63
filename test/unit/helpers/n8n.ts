import { createHash } from 'node:crypto';
import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
	JsonObject,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, Workflow } from 'n8n-workflow';

import { CompanyPaymentsApi } from '../../../credentials/CompanyPaymentsApi.credentials';
import { CompanyPayments } from '../../../nodes/CompanyPayments/CompanyPayments.node';
import { forgetAllSentWrites } from '../../../nodes/shared/money/write';
import { CREDENTIAL_TEST } from '../../../nodes/shared/credentialTest';

export const BASE_URL = 'https://api.payments.test';
export const API_KEY = 'sk_dummy_0123456789abcdef';
export const NODE_ID = '6f1c3b1e-2a8d-4c1e-9b7a-1d2e3f4a5b6c';
export const INSTANCE_ID = 'a3f1c0de5b7e4d2f9a8b6c4d2e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f';
export const WORKFLOW_ID = 'wf-Xb3kQ9';

/**
 * n8n's execution custom data, one store per execution ID as n8n keeps it with the execution
 * (so a second run with the same execution ID is a retry inside that execution). A test that
 * plays another n8n database passes its own `customData`.
 */
const executionCustomData = new Map<string, Map<string, string>>();

export function customDataOf(executionId: string): Map<string, string> {
	let data = executionCustomData.get(executionId);
	if (!data) {
		data = new Map();
		executionCustomData.set(executionId, data);
	}
	return data;
}

/** The part of a derived Idempotency-Key that names the n8n instance and workflow. */
export function keyScope(instanceId = INSTANCE_ID, workflowId = WORKFLOW_ID): string {
	return createHash('sha256').update(`${instanceId}/${workflowId}`).digest('hex').slice(0, 16);
}

/** The key the node derives for an item without a user key (execution 1001 unless given). */
export function derivedKey(runIndex = 0, itemIndex = 0, executionId = '1001'): string {
	const scope = keyScope(INSTANCE_ID, WORKFLOW_ID);
	return `pay:${scope}:${executionId}:${NODE_ID}:${runIndex}:${itemIndex}`;
}

/** The key the node derives for accepting one quote (once per quote, lower case). */
export function acceptKey(quoteId: string): string {
	return `pay:once:accept:${quoteId.toLowerCase()}`;
}

export interface FullResponse {
	body: unknown;
	headers: Record<string, string>;
	statusCode: number;
	statusMessage: string;
}

/**
 * A stand-in for n8n-core's httpRequest, over the global fetch (which nock intercepts). It
 * follows n8n's behaviour for the options this package uses: query string, JSON body (an
 * empty object is not sent), returnFullResponse, ignoreHttpStatusErrors, encoding "text".
 */
export async function httpRequest(options: IHttpRequestOptions): Promise<unknown> {
	const url = new URL(options.url);
	for (const [key, value] of Object.entries(options.qs ?? {})) {
		url.searchParams.append(key, String(value));
	}
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(options.headers ?? {})) headers[key] = String(value);
	let body: string | undefined;
	const raw = options.body as unknown;
	if (
		raw !== undefined &&
		!(typeof raw === 'object' && raw !== null && Object.keys(raw).length === 0)
	) {
		body = typeof raw === 'string' ? raw : JSON.stringify(raw);
		if (!Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) {
			headers['Content-Type'] = 'application/json';
		}
	}
	// Like n8n's helper: redirects are followed (custom headers such as X-API-Key go along, a
	// POST answered 301/302 becomes a GET) unless disableFollowRedirect is set.
	const response = await fetch(url, {
		method: options.method ?? 'GET',
		headers,
		body,
		redirect: options.disableFollowRedirect ? 'manual' : 'follow',
	});
	const text = await response.text();
	if (!options.ignoreHttpStatusErrors && !response.ok) {
		// As axios' error: the status rides along as `response` (what n8n's tester reads).
		throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
			response: { status: response.status, statusText: response.statusText },
		});
	}
	let parsed: unknown = text;
	if (options.encoding !== 'text') {
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = text;
		}
	}
	if (!options.returnFullResponse) return parsed;
	const responseHeaders: Record<string, string> = {};
	response.headers.forEach((value, key) => {
		responseHeaders[key] = value;
	});
	const full: FullResponse = {
		body: parsed,
		headers: responseHeaders,
		statusCode: response.status,
		statusMessage: response.statusText,
	};
	return full;
}

/**
 * Applies the credential's `authenticate` the way n8n's credentials helper does: a function is
 * called as it is; the generic object's `={{$credentials.x}}` values are resolved.
 */
export async function authenticate(
	options: IHttpRequestOptions,
	credentials: ICredentialDataDecryptedObject,
): Promise<IHttpRequestOptions> {
	const auth = new CompanyPaymentsApi().authenticate;
	if (typeof auth === 'function') return await auth(credentials, options);
	const headers: IDataObject = { ...options.headers };
	for (const [name, template] of Object.entries(auth.properties.headers ?? {})) {
		headers[name] = String(template).replace(
			/^=\{\{\$credentials\.(\w+)\}\}$/,
			(_match, field: string) => String(credentials[field] ?? ''),
		);
	}
	return { ...options, headers };
}

/** lodash's `get`, which n8n's CredentialsTester reads a rule's key with (a string's own keys too). */
function lodashGet(value: unknown, path: string): unknown {
	let current: unknown = value;
	for (const key of path.split('.')) {
		if (current === null || current === undefined) return undefined;
		current = (current as Record<string, unknown>)[key];
	}
	return current;
}

/**
 * The credential's `test` run the way n8n's CredentialsTester runs a declarative test (n8n-core's
 * RoutingNode, n8n 2.8.4 and 2.41.1): the request's expressions resolved against the credential
 * (n8n-workflow's expression engine), the credential's `authenticate` applied, sent through n8n's
 * HTTP helper (a stand-in); a failed request with a status goes by the `responseCode` rules (as
 * n8n 2.41.1; n8n 2.8.4 loses the status and gives its own text, test/e2e/credential.test.mjs),
 * a 2xx answer's body (JSON, else its text) by the `responseSuccessBody` rules in order, the
 * first match an error, else "Connection successful!". A request that throws without a response
 * gives its message, as n8n's does.
 */
export async function runCredentialTest(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const node: INode = {
		id: 'n-1',
		name: 'Temp',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
		getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const resolve = (value: unknown): unknown =>
		typeof value === 'string' && value.startsWith('=')
			? workflow.expression.getSimpleParameterValue(node, value, 'internal', {
					$credentials: data,
				})
			: value;
	const { request, rules } = CREDENTIAL_TEST;
	const options = {
		...request,
		url: `${String(resolve(request.baseURL))}${request.url}`,
	} as IHttpRequestOptions & { baseURL?: string };
	delete options.baseURL;
	let body: unknown;
	try {
		const authenticated = await authenticate(options, data);
		body = ((await httpRequest({ ...authenticated, returnFullResponse: true })) as FullResponse)
			.body;
	} catch (error) {
		// n8n 2.41.1's tester: a failed request that keeps its response goes by the status rules,
		// else n8n's own text for the status; one without a response gives its message.
		const response = (error as { response?: { status: number; statusText: string } }).response;
		if (response === undefined) return { status: 'Error', message: (error as Error).message };
		for (const rule of rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === response.status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		return {
			status: 'Error',
			message: response.statusText || `Received HTTP status code: ${response.status}`,
		};
	}
	for (const rule of rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		if (lodashGet(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

export interface ContextOptions {
	/** The run follows an earlier one in the same n8n process (Retry On Fail): money writes it already sent are remembered. */
	sameProcess?: boolean;
	/** Parameters for every item, or one object per item. */
	parameters: IDataObject | IDataObject[];
	/** Input items (defaults to one empty item, or one per parameter object). */
	items?: IDataObject[];
	credentials?: ICredentialDataDecryptedObject;
	continueOnFail?: boolean;
	/** The node's On Error setting (continueOnFail() is true for both continue modes). */
	onError?: INode['onError'];
	executionId?: string;
	instanceId?: string;
	workflowId?: string;
	/** The execution's custom data; default: the store of its execution ID. */
	customData?: Map<string, string>;
	nodeId?: string;
	runIndex?: number;
	/** The node's version (default 1). */
	typeVersion?: number;
	/** The node's raw parameters as saved (an expression is `={{ … }}`); default none. */
	nodeParameters?: IDataObject;
	/**
	 * What n8n's getExecutionContext() gives (n8n-core runtimeData): a sub-workflow's run carries
	 * `parentExecutionId` and `source: 'integrated'`; default none (the method is absent).
	 */
	executionContext?: IDataObject;
}

/** Reads a dotted parameter path (`options.foo`) the way getNodeParameter does. */
export function readPath(source: IDataObject, path: string): unknown {
	let current: unknown = source;
	for (const part of path.split('.')) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

/** The node n8n-core's helper names in the NodeApiError it wraps a failure in. */
const AUTH_HELPER_NODE: INode = {
	id: NODE_ID,
	name: 'Company Payments',
	type: 'n8n-nodes-company-payments.companyPayments',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** What a fake context's httpRequestWithAuthentication was given, call by call. */
export interface AuthenticatedCall {
	credentialsType: string;
	/** Whether the caller handed the decrypted credential (n8n then does not read it again). */
	handedCredential: boolean;
}

/**
 * The HTTP helpers of a fake n8n context: each records the request it sends (after the
 * credential's authentication was applied) into `requests`. httpRequestWithAuthentication does
 * what n8n-core's does with a generic credential: it takes the decrypted credential it is
 * handed (`additionalCredentialOptions.credentialsDecrypted`) or reads it with
 * `getCredentials`, applies the credential's `authenticate` and sends.
 */
export function httpHelpers(
	requests: IHttpRequestOptions[],
	credentials: ICredentialDataDecryptedObject,
	calls: AuthenticatedCall[] = [],
	readCredentials: () => Promise<ICredentialDataDecryptedObject> = async () => credentials,
) {
	return {
		httpRequest: async (request: IHttpRequestOptions) => {
			requests.push(request);
			return await httpRequest(request);
		},
		httpRequestWithAuthentication: async (
			credentialsType: string,
			request: IHttpRequestOptions,
			additional?: IAdditionalCredentialOptions,
		) => {
			const handed = additional?.credentialsDecrypted?.data;
			calls.push({ credentialsType, handedCredential: handed !== undefined });
			const authenticated = await authenticate(request, handed ?? (await readCredentials()));
			requests.push(authenticated);
			try {
				return await httpRequest(authenticated);
			} catch (error) {
				// n8n-core wraps every failure of this helper in a NodeApiError of the node.
				throw new NodeApiError(AUTH_HELPER_NODE, error as JsonObject);
			}
		},
	};
}

function isLocator(value: unknown): value is { __rl: true; mode: string; value: unknown } {
	return typeof value === 'object' && value !== null && '__rl' in value && 'value' in value;
}

export interface FakeContext extends IExecuteFunctions {
	/** Every request the node made, after authentication was applied. */
	requests: IHttpRequestOptions[];
	/** Every call of httpRequestWithAuthentication. */
	authenticatedCalls: AuthenticatedCall[];
	/** The execution hints the node added (shown above its output in the editor). */
	hints: NodeExecutionHint[];
}

export function createContext(options: ContextOptions): FakeContext {
	// Each context is a run in a new n8n process unless the case says it is a retry in the same one.
	if (!options.sameProcess) forgetAllSentWrites();
	const perItem = Array.isArray(options.parameters) ? options.parameters : undefined;
	const items: INodeExecutionData[] = (
		options.items ?? (perItem ? perItem.map(() => ({})) : [{}])
	).map((json) => ({ json }));
	const credentials: ICredentialDataDecryptedObject = options.credentials ?? {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: API_KEY,
		webhookSecret: '',
	};
	const node: INode = {
		id: options.nodeId ?? NODE_ID,
		name: 'Company Payments',
		type: 'n8n-nodes-company-payments.companyPayments',
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: (options.nodeParameters ?? {}) as INode['parameters'],
		onError: options.onError,
	};
	const requests: IHttpRequestOptions[] = [];
	const authenticatedCalls: AuthenticatedCall[] = [];
	const hints: NodeExecutionHint[] = [];
	// The context's own getCredentials, as n8n's helper reads the credential when not handed it.
	const readCredentials = async (): Promise<ICredentialDataDecryptedObject> =>
		await (context as unknown as IExecuteFunctions).getCredentials('companyPaymentsApi');
	const context: Record<string, unknown> = {
		requests,
		authenticatedCalls,
		hints,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getInputData: () => items,
		getNode: () => node,
		getExecutionId: () => ('executionId' in options ? options.executionId : '1001') as string,
		...(options.executionContext ? { getExecutionContext: () => options.executionContext } : {}),
		getInstanceId: () => options.instanceId ?? INSTANCE_ID,
		getWorkflow: () => ({ id: options.workflowId ?? WORKFLOW_ID, name: 'Test', active: false }),
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: async () => credentials,
		getWorkflowDataProxy: () => {
			const executionId = ('executionId' in options ? options.executionId : '1001') as string;
			const data = options.customData ?? (executionId ? customDataOf(executionId) : undefined);
			return {
				$runIndex: options.runIndex ?? 0,
				$execution: {
					id: executionId,
					customData: data && {
						get: (name: string) => data.get(name),
						set: (name: string, value: string) => {
							if (data.has(name) || data.size < 10) data.set(name, String(value));
						},
					},
				},
			};
		},
		getNodeParameter: (
			name: string,
			itemIndex: number,
			fallback?: unknown,
			parameterOptions?: { extractValue?: boolean },
		) => {
			const source = perItem ? perItem[itemIndex] : (options.parameters as IDataObject);
			const value = readPath(source ?? {}, name);
			// Like n8n: with extractValue a resource locator ({ __rl, mode, value }) gives its value.
			if (parameterOptions?.extractValue && isLocator(value)) return value.value;
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		helpers: httpHelpers(requests, credentials, authenticatedCalls, readCredentials),
	};
	return context as unknown as FakeContext;
}

/** Runs the action node's execute() against the given parameters. */
export async function runNode(
	options: ContextOptions,
	nodeType: INodeType = new CompanyPayments(),
): Promise<{ output: INodeExecutionData[]; context: FakeContext }> {
	const context = createContext(options);
	const result = (await nodeType.execute!.call(context)) as INodeExecutionData[][];
	return { output: result[0], context };
}

/** The type n8n gives the node when it runs it as an AI agent's (or MCP trigger's) tool. */
export const TOOL_TYPE = 'n8n-nodes-company-payments.companyPaymentsTool';

/** The node as n8n runs it for a tool: the derived `…Tool` type (or `type`), the parameters stored on it. */
export function toolContext(options: ContextOptions & { type?: string }): FakeContext {
	const context = createContext(options);
	const node = context.getNode();
	node.type = options.type ?? TOOL_TYPE;
	node.parameters = { ...(options.parameters as IDataObject) } as INode['parameters'];
	return context;
}

/** Runs the action node as a tool; `output` is each item's JSON. */
export async function runTool(
	options: ContextOptions & { type?: string },
): Promise<{ output: IDataObject[]; context: FakeContext }> {
	const context = toolContext(options);
	const result = await new CompanyPayments().execute.call(context);
	return { output: result[0].map((item) => item.json), context };
}

/** Runs the node and returns the error it throws (fails the test if it does not throw). */
export async function runNodeError(options: ContextOptions): Promise<Error & IDataObject> {
	try {
		await runNode(options);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('Expected the node to throw');
}
