import nock from 'nock';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { CompanyPayments } from '../../../nodes/CompanyPayments/CompanyPayments.node';
import { forgetSkews } from '../../../nodes/shared/money/clock';
import { forgetAllSentWrites } from '../../../nodes/shared/money/write';
import { BASE_URL, createContext, runNode, toolContext } from './n8n';
import type { ContextOptions } from './n8n';

/*
 * The money cases of the outside reads (money-outside-r10, r11, r11b): runs in one n8n process,
 * each a new execution, under a named n8n credential, and a service that pays every payout.
 */

/** A card number that passes the checksum, the requisite of every payout here. */
export const CARD = '2200700000000001';

/**
 * When a record answered to a money write was made: now, by this machine's clock. The node takes a
 * record as proof of a write only when it was made after the write was sent (as far as the clocks
 * tell: money/binding.ts; without a Date header, n8n's own clock with UNDATED_PREDATES_MS), so a
 * fixture that stands for the record this write made is made near the test's send, never on a fixed
 * date that ages behind it.
 */
export const madeNow = (): string => new Date().toISOString();

/** The service's Date header, as the current time. */
export const dated = () => ({ Date: new Date().toUTCString() });

/** A credential of the staging environment holding `apiKey` (at `baseUrl`). */
export function credentials(apiKey: string, baseUrl = BASE_URL): ICredentialDataDecryptedObject {
	return { environment: 'staging', baseUrl, apiKey, webhookSecret: '' };
}

/** A payout the service made just now, waiting for a trader, with `over` on top. */
export function payoutRecord(over: IDataObject = {}): IDataObject {
	return {
		id: 'p-1',
		externalId: 'inv-1',
		status: 'waiting_trader',
		amountRub: 1500,
		chargedUsdt: 16.2,
		rate: 92.5,
		requisiteType: 'card',
		requisite: CARD,
		bankId: null,
		failReason: null,
		refundedAt: null,
		createdAt: madeNow(),
		...over,
	};
}

/** A service that pays every payout POST as a new record (p-1, p-2, …) and reads any back as it is; returns the count of POSTs. */
export function servePayouts(): () => number {
	let posts = 0;
	nock(BASE_URL)
		.post('/payouts')
		.reply(
			200,
			() => {
				posts += 1;
				return payoutRecord({ id: `p-${posts}` });
			},
			dated(),
		)
		.persist();
	nock(BASE_URL)
		.get(/\/payouts\/p-\d+/)
		.reply(200, (uri) => payoutRecord({ id: uri.split('/').pop() }))
		.persist();
	return () => posts;
}

export type MoneyRunOptions = Partial<ContextOptions> & {
	/** The n8n credential's ID on the node (default cred-A). */
	credentialId?: string;
	/** Run as an AI agent's tool (its errors thrown), else as a node continuing on fail. */
	tool?: boolean;
};

let execution = 10_000;

/**
 * One run in this process, a new execution unless given: its first output item and its requests.
 * `defaults` go under every run's own options.
 */
export function moneyRunner(defaults: MoneyRunOptions = {}) {
	return async function run(parameters: IDataObject, more: MoneyRunOptions = {}) {
		execution += 1;
		const { credentialId, tool, ...options } = { ...defaults, ...more };
		const contextOptions: ContextOptions = {
			parameters,
			continueOnFail: !tool,
			sameProcess: true,
			executionId: String(execution),
			...options,
		};
		const context = tool ? toolContext(contextOptions) : createContext(contextOptions);
		context.getNode().credentials = {
			companyPaymentsApi: { id: credentialId ?? 'cred-A', name: 'C' },
		};
		const result = await new CompanyPayments().execute.call(context);
		return { item: result[0][0].json, requests: context.requests };
	};
}

/*
 * The fixtures of the fourteenth and fifteenth outside reads (money-outside-r14, r15, r15b): a
 * payout of 1500 RUB to the reader's card, a service dated at will, one run a new execution.
 */

/** The card of the r14 and r15 reads' payouts (passes the checksum). */
export const READER_CARD = '2200123456789012';

/** The service's Date header, `offsetMs` from this machine's clock now. */
export const datedAt = (offsetMs: number) => ({
	Date: new Date(Date.now() + offsetMs).toUTCString(),
});

/** Payout Create of 1500 RUB to READER_CARD (as typed, with spaces) under `externalId`. */
export const readerCreate = (externalId: string): IDataObject => ({
	resource: 'payout',
	operation: 'create',
	amountRub: '1500',
	requisiteType: 'card',
	requisite: '2200 1234 5678 9012',
	additionalFields: { externalId },
});

/** The payout of `readerCreate`, waiting for a trader, made at `createdAt`. */
export function readerPayout(id: string, externalId: string, createdAt: string): IDataObject {
	return {
		id,
		externalId,
		status: 'waiting_trader',
		amountRub: 1500,
		chargedUsdt: 17.1,
		rate: 87.7,
		requisiteType: 'card',
		requisite: READER_CARD,
		refundedAt: null,
		failReason: null,
		createdAt,
	};
}

/** A service error body of `status` with `errorCode`. */
export const serviceError = (status: number, errorCode: string) => ({
	statusCode: status,
	error: 'x',
	errorCode,
	message: 'x',
});

/**
 * Runs of the node in one n8n process, each a new execution numbered from `firstExecution`,
 * continuing on fail (`more` on top): each item's JSON.
 */
export function inProcessRunner(firstExecution: number) {
	let next = firstExecution;
	return async function run(
		parameters: IDataObject | IDataObject[],
		more: Partial<ContextOptions> = {},
	): Promise<IDataObject[]> {
		next += 1;
		const { output } = await runNode({
			parameters,
			continueOnFail: true,
			sameProcess: true,
			executionId: String(next),
			...more,
		});
		return output.map((o) => o.json as IDataObject);
	};
}

/** An item whose payment is unknown and that carries the write it sent (its seal). */
export function expectUnknownWithSentWrite(item: IDataObject) {
	expect(item.error).toBeDefined();
	expect(item.paymentOutcome).toBe('unknown');
	expect(item.sentWrite).toEqual(expect.objectContaining({ seal: expect.any(String) }));
}

/**
 * The outside reads' money files: no request leaves the machine, each test starts with no sent
 * write and no measured clock skew, and every mocked answer was asked for.
 */
export function isolateMoneyTests(): void {
	beforeAll(() => nock.disableNetConnect());
	beforeEach(() => {
		forgetAllSentWrites();
		forgetSkews();
	});
	afterEach(() => {
		expect(nock.pendingMocks()).toEqual([]);
		nock.cleanAll();
	});
}
