import nock from 'nock';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	IPollFunctions,
} from 'n8n-workflow';

import { CompanyPaymentsPollTrigger } from '../../../nodes/CompanyPaymentsPollTrigger/CompanyPaymentsPollTrigger.node';
import { API_KEY, BASE_URL, httpHelpers, readPath } from './n8n';

export { API_KEY, BASE_URL };

export const NOW = Date.parse('2026-11-21T12:00:00.000Z');
export const DAY = 86_400_000;

/** An ISO time `days` days before NOW. */
export function daysAgo(days: number): string {
	return new Date(NOW - days * DAY).toISOString();
}

export type ListName = 'payouts' | 'orders' | 'deposits' | 'userDeposits' | 'cards' | 'disputes';

const PATHS: Record<ListName, { path: string; key: string | null }> = {
	payouts: { path: '/payouts', key: 'payouts' },
	orders: { path: '/orders', key: null },
	deposits: { path: '/wallets/deposits', key: 'deposits' },
	userDeposits: { path: '/user-wallets/deposits', key: 'deposits' },
	cards: { path: '/cards', key: 'cards' },
	disputes: { path: '/disputes', key: 'disputes' },
};

/**
 * A fake service over nock: lists kept newest first (as the sandbox and the documented
 * disputes list do), paged with limit/offset like GET /user-wallets/deposits, orders as a bare
 * array, the others in an envelope with total. `failing` answers a path with an error body.
 */
export class FakeService {
	lists: Record<ListName, IDataObject[]> = {
		payouts: [],
		orders: [],
		deposits: [],
		userDeposits: [],
		cards: [],
		disputes: [],
	};
	balance: IDataObject = { usdtBalance: 500, frozenBalance: 0 };
	/** GET /auth/company/profile (the poll reads the company's ID from it); null: 404. */
	profile: IDataObject | null = { id: 'company-1', name: 'Company One' };
	failing = new Map<string, { status: number; body: IDataObject }>();
	/** The most records the service hands out per page whatever limit asks (silently). */
	pageCap = Number.POSITIVE_INFINITY;
	/** Whether envelopes carry `total`. */
	withTotal = true;
	/** Called after each page is cut, before it is sent: a test adds records meanwhile here. */
	afterPage?: (list: ListName, offset: number) => void;
	/** Every request: path and query. */
	calls: Array<{ path: string; query: URLSearchParams }> = [];

	constructor() {
		nock(BASE_URL)
			.persist()
			.get(() => true)
			.reply((uri) => {
				const url = new URL(uri, BASE_URL);
				this.calls.push({ path: url.pathname, query: url.searchParams });
				const failure = this.failing.get(url.pathname);
				if (failure) return [failure.status, failure.body];
				if (url.pathname === '/wallets/balance') return [200, this.balance];
				if (url.pathname === '/auth/company/profile' && this.profile) return [200, this.profile];
				const name = (Object.keys(PATHS) as ListName[]).find((n) => PATHS[n].path === url.pathname);
				if (!name) return [404, { statusCode: 404, errorCode: 'NOT_FOUND', message: 'нет' }];
				const limit = Math.min(this.pageCap, Number(url.searchParams.get('limit') ?? 20));
				const offset = Number(url.searchParams.get('offset') ?? 0);
				let records = this.lists[name];
				const externalId = url.searchParams.get('externalId');
				if (externalId) records = records.filter((r) => r.externalId === externalId);
				const page = records.slice(offset, offset + limit);
				this.afterPage?.(name, offset);
				const { key } = PATHS[name];
				const envelope: IDataObject = { [key ?? 'items']: page };
				if (this.withTotal) envelope.total = records.length;
				return [200, key ? envelope : page];
			});
	}

	/** Adds a record at the front (newest). */
	add(list: ListName, record: IDataObject): IDataObject {
		this.lists[list].unshift(record);
		return record;
	}

	callsTo(path: string): number {
		return this.calls.filter((call) => call.path === path).length;
	}
}

export interface PollRun {
	items: IDataObject[] | null;
	staticData: IDataObject;
	requests: IHttpRequestOptions[];
	warnings: string[];
}

export interface PollOptions {
	parameters: IDataObject;
	staticData?: IDataObject;
	mode?: 'trigger' | 'manual';
	credentials?: ICredentialDataDecryptedObject;
	/** The ID of the n8n credential the node uses (default: one credential for every poll). */
	credentialId?: string;
	now?: number;
}

const WORKFLOW_MARK = '__testWorkflowId';
let workflows = 0;

/** A poll context that behaves like n8n's PollContext for what the node uses. */
export function createPollContext(options: PollOptions) {
	const staticData = options.staticData ?? {};
	const credentials = options.credentials ?? {
		environment: 'staging',
		baseUrl: BASE_URL,
		apiKey: API_KEY,
		webhookSecret: '',
	};
	const node: INode = {
		id: 'a9e1c0de-0000-4000-8000-000000000011',
		name: 'Company Payments Poll Trigger',
		type: 'n8n-nodes-company-payments.companyPaymentsPollTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters as INodeParameters,
		credentials: { companyPaymentsApi: { id: options.credentialId ?? 'cred-1', name: 'Payments' } },
	};
	const requests: IHttpRequestOptions[] = [];
	const warnings: string[] = [];
	// One workflow id per chain of polls: it travels with the static data (as the workflow's
	// id does in n8n), so a new test is a new workflow for the node's in-process state.
	if (typeof staticData[WORKFLOW_MARK] !== 'string')
		staticData[WORKFLOW_MARK] = `wf-${++workflows}`;
	const workflow = { id: staticData[WORKFLOW_MARK] as string, name: 'poll test', active: true };
	const context = {
		getNode: () => node,
		getWorkflow: () => workflow,
		getMode: () => options.mode ?? 'trigger',
		getCredentials: async () => credentials,
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error(`unexpected static data type ${type}`);
			return staticData;
		},
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = readPath(options.parameters, name);
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		logger: {
			warn: (message: string) => warnings.push(message),
			info: () => undefined,
			debug: () => undefined,
			error: (message: string) => warnings.push(message),
		},
		helpers: httpHelpers(requests, credentials),
	};
	return { context: context as unknown as IPollFunctions, staticData, requests, warnings };
}

/** Runs one poll at `now` (Date.now is pinned to it) and returns its items. */
export async function runPoll(options: PollOptions): Promise<PollRun> {
	const { context, staticData, requests, warnings } = createPollContext(options);
	const spy = jest.spyOn(Date, 'now').mockReturnValue(options.now ?? NOW);
	try {
		const result = (await new CompanyPaymentsPollTrigger().poll!.call(context)) as
			| INodeExecutionData[][]
			| null;
		return {
			items: result ? result[0].map((entry) => entry.json) : null,
			staticData,
			requests,
			warnings,
		};
	} finally {
		spy.mockRestore();
	}
}

/** Runs a poll that must throw and returns the error. */
export async function runPollError(options: PollOptions): Promise<Error & IDataObject> {
	try {
		await runPoll(options);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('Expected the poll to throw');
}

/** Static data as n8n stores it between polls and restarts (JSON in the database). */
export function roundTrip(staticData: IDataObject): IDataObject {
	return JSON.parse(JSON.stringify(staticData)) as IDataObject;
}

let counter = 0;
/** A UUID-shaped id, unique per call. */
export function id(prefix = ''): string {
	counter++;
	return `${prefix}0000000-0000-4000-8000-${String(counter).padStart(12, '0')}`.slice(-36);
}

export function payout(overrides: IDataObject = {}): IDataObject {
	return {
		id: id(),
		externalId: null,
		status: 'waiting_trader',
		amountRub: 1000,
		chargedUsdt: 10.5,
		rate: 95.2,
		requisiteType: 'phone',
		requisite: '+79990000000',
		bankId: 'sber',
		bank: 'Сбербанк',
		recipientFirstName: null,
		recipientLastName: null,
		failReason: null,
		comment: null,
		refundedAt: null,
		dispute: null,
		takenAt: null,
		completedAt: null,
		createdAt: daysAgo(1),
		...overrides,
	};
}
