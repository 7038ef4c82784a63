import { createHash, randomUUID } from 'node:crypto';

import { fitted, identity } from '../identity';
import { canonicalJson } from './binding';
import { HELD_MS, MAX_KEPT } from './bounds';
import type { MoneyContract } from './contract';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The service accepts Idempotency-Key values of at most this many characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

const PRINTABLE = /^[\x21-\x7e]+$/;
/** A UUID, in either letter case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An action that can happen to one record only once, e.g. accepting quote 0b6a…. */
export interface OnceFor {
	/** Short name of the action, e.g. "accept". */
	action: string;
	/** The record it happens to, e.g. the quote ID. */
	id: string;
}

/**
 * The key of an action that happens to one record once. A UUID names the same record in either
 * letter case, so it is keyed in lower case: the same quote copied in upper case from a log and
 * in lower case from an API answer is one payment, not two.
 */
function onceKey({ action, id: given }: OnceFor): string {
	const id = UUID.test(given) ? given.toLowerCase() : given;
	return fitted(identity('pay', ['once'], [action, id]), IDEMPOTENCY_KEY_MAX_LENGTH);
}

/**
 * A key or reference the user (or an expression, or the model) gave, as its exact text. An
 * expression such as `{{ $json.invoiceId }}` hands over a number: 1042 is "1042". What has no
 * single exact text is refused, naming the field, the rule and the value, before any request:
 * a number beyond JavaScript's safe integers (its digits were already changed), NaN or
 * Infinity, true/false, arrays and objects; text with white space at its start or end
 * (untrimmedIdentity). Empty, blank (or absent) is ''. `trim`: a tool's Payment Reference, which is
 * made canonical before it names anything, is trimmed instead.
 */
export function exactText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	trim = false,
): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') {
		// Blank is '' (the field's own rule decides whether blank may be); a tool's reference is
		// made canonical later (canonicalReference), so only there is it trimmed.
		if (trim || value.trim() === '') return value.trim();
		return untrimmedIdentity(ctx, itemIndex, value, field);
	}
	if (typeof value === 'bigint') return value.toString();
	// One rule for every identity of a payment (outside r10-money F6): a number is its digits only
	// when it is a safe integer. A fraction has no one exact text (12345.10 prints "12345.1",
	// 0.1 + 0.2 "0.30000000000000004"), a larger integer has lost digits.
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	if (typeof value === 'number') throw inexactIdentity(ctx, itemIndex, value, field);
	const shown = typeof value === 'object' ? JSON.stringify(value) : String(value);
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: typeof value;
	const rule =
		typeof value === 'number'
			? `a number here must be a finite number no larger than ${Number.MAX_SAFE_INTEGER} (larger integers have already lost digits); pass it as text, e.g. {{ String($json.id) }} or the field as it comes from your source`
			: 'it must be text or a whole number';
	throw new NodeOperationError(
		ctx.getNode(),
		`${field} must be text, got ${kind}: ${shown.slice(0, 80)}`,
		{
			itemIndex,
			description: `${field}: ${rule}. Nothing was sent to the payment service.`,
		},
	);
}

/**
 * The refusal of a number that is no safe integer as a payment's identity (an Idempotency Key, a
 * Payment Reference, an External ID, a Bank ID), naming the field, the rule and the value, before
 * anything is sent (outside r10-money F6).
 */
function inexactIdentity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: number,
	field: string,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`${field} must be text or a whole number, got number: ${String(value)}`,
		{
			itemIndex,
			description: `${field}: it names the payment, so a number here must be a whole number no larger than ${Number.MAX_SAFE_INTEGER} (a fraction such as 12345.10 has no one exact text: it would be sent as "12345.1", and a larger integer has already lost digits); pass it as text, e.g. {{ String($json.id) }} or the field as it comes from your source. Nothing was sent to the payment service.`,
		},
	);
}

/** White space (as String.prototype.trim removes it) at the start or at the end of a text. */
const EDGE_SPACE = /^\s|\s$/;

/**
 * A text that names a payment (an External ID, an Idempotency Key, a Bank ID, a Payment Reference
 * outside tool mode), as given: one with white space at its start or end (a CSV cell's " INV 42 ",
 * "INV 42\n", a tab, a no-break space) is refused before anything is sent, naming the field, the
 * rule and the value as JSON (outside r24-money F5). It is never trimmed: a record carries an
 * identity only exactly as it was sent (evidence.ts compareIdentity), so " INV 42 " sent as
 * "INV 42" would be found later as another External ID's payment, and "INV 42" is not what the
 * user gave. Refusing is the safer choice (docs/assumptions.md "Evidence of a payment").
 */
export function untrimmedIdentity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: string,
	field: string,
): string {
	if (!EDGE_SPACE.test(value)) return value;
	const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
	throw new NodeOperationError(
		ctx.getNode(),
		`${field} must not start or end with white space, got ${shown}; remove it, e.g. {{ $json.id.trim() }}`,
		{
			itemIndex,
			description: `${field} names the payment and is sent exactly as given, so it must not start or end with white space (a space, a tab, a line break, a no-break space): the service would keep it as another ${field} than the one without. Remove the white space in your data or in the expression (e.g. {{ $json.id.trim() }}). Nothing was sent to the payment service.`,
		},
	);
}

/**
 * An optional identity of a payment given in a field (External ID, Bank ID): a number only as a
 * safe integer; a fraction is refused here (inexactIdentity), anything else is read as text by
 * `read` (the field's own rule, which refuses a larger integer, NaN and Infinity).
 */
export function identityText<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
	read: (value: unknown) => T,
): T {
	// A fraction here; a larger integer, NaN or Infinity are refused by the field's own reader,
	// in its own words (an integer above 2^53 - 1 "must be given as text").
	if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
		throw inexactIdentity(ctx, itemIndex, value, field);
	}
	// Sent exactly as given or refused (outside r24-money F5); blank is the field's own "none".
	if (typeof value === 'string' && value.trim() !== '') {
		untrimmedIdentity(ctx, itemIndex, value, field);
	}
	return read(value);
}

/**
 * A payment reference as it names a payment: Unicode-normalised (NFKC), invisible characters
 * dropped, every dash or minus sign a hyphen, trimmed, inner white space as one space, in lower
 * case (İNV is inv). A model or a person writes the same invoice as "INV-1042", "inv-1042",
 * "INV–1042" or "INV-1042 " from one call to the next; those are one payment, never four.
 */
export function canonicalReference(reference: string): string {
	return reference
		.normalize('NFKC')
		.replace(INVISIBLE, '')
		.replace(DASHES, '-')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase()
		.replace(/i\u0307/g, 'i');
}

/** Characters that show as nothing: zero-width spaces and joiners, word joiner, soft hyphen, BOM. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g;
/** Dashes and minus signs that read as a hyphen in a reference (INV‐100, INV–100, INV−100). */
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;

/**
 * The Idempotency-Key of a payment a tool call names by its reference:
 * `ref:<resource.operation>:<reference>` (nodes/shared/identity.ts), the reference canonical
 * (canonicalReference). A reference names a payment of the company, so nothing of n8n is part of
 * it: not the execution (an MCP Server Trigger runs the tool before n8n creates one, and every MCP
 * call is a new one), nor the node, workflow or instance (an agent's tool node and an MCP
 * server's, a duplicated workflow, a second n8n on the same company, all asking for invoice
 * INV-1042, ask for one payment). The service keeps keys per company, which is the scope the
 * credential gives. So the same reference, by any route, sends the same key.
 */
export function referenceKey(given: string, operation: string): string {
	return fitted(
		identity('ref', [operation], [canonicalReference(given)]),
		IDEMPOTENCY_KEY_MAX_LENGTH,
	);
}

/**
 * The External ID a tool call's payment carries (a payout, a card request): the reference as it
 * names the payment (canonicalReference), fitted to what the service takes. It carries no scope of
 * its own: a payout's External ID is only ever compared within the company's payout list (its
 * External ID filter), a card's within its cards, so the record's kind and company are where it
 * is kept; and the user reads it as their own reference.
 */
export function referenceExternalId(given: string, maxLength: number): string {
	return fitted(canonicalReference(given), maxLength);
}

/** What n8n's context offers, or '' where it offers nothing (the rest of a key still separates). */
function offered(read: () => unknown): string {
	try {
		const value = read();
		return value === undefined || value === null ? '' : String(value);
	} catch {
		return '';
	}
}

/**
 * The key of one item of one execution, derived only from what n8n gives every run of that
 * execution: 16 hex characters of SHA-256 over n8n's instance ID and the workflow ID (execution
 * IDs restart at 1 with every n8n database and an exported workflow keeps its node IDs, so a
 * second instance must not send keys another already stored), the execution id, the node id, the
 * node's run index and the item index. Nothing a run stores is part of it (a run that crashed
 * never saved anything): Retry On Fail re-runs the node inside the same execution and run, and a
 * Wait node's resume continues the same execution, so each sends the same key and a service that
 * keeps keys returns the stored answer instead of paying twice. (n8n 2.8.4 and 2.41.1 do not run
 * the job of a queue worker that died again: its execution ends in error; see docs/queue-mode.md
 * and test/queue/crash-key.test.mjs.) A loop over batches (a new run)
 * or a new execution (including a re-run of a failed one from the execution list) gets new keys.
 * Without an execution id a random key is used (never a shared one), kept for this item unless
 * its write was proved not paid (unexecutedKey): Retry On Fail is the same request, and a paid
 * item gets its first answer back.
 */
function executionKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const executionId = offered(() => ctx.getExecutionId());
	if (!executionId) return unexecutedKey(ctx, itemIndex);
	const where = `${offered(() => ctx.getInstanceId())}/${offered(() => ctx.getWorkflow().id)}`;
	const scope = createHash('sha256').update(where).digest('hex').slice(0, 16);
	const run = offered(() => ctx.getWorkflowDataProxy(itemIndex).$runIndex) || '0';
	const parent = parentExecutionId(ctx);
	if (parent) return parentKey(ctx, itemIndex, scope, parent, run);
	const parts = [executionId, ctx.getNode().id, run, String(itemIndex)];
	return fitted(identity('pay', [scope], parts), IDEMPOTENCY_KEY_MAX_LENGTH);
}

/**
 * The execution that called this one, when this is a sub-workflow's run (an Execute Workflow node,
 * a workflow tool): n8n-core's execution context (`getExecutionContext().parentExecutionId`, with
 * `source: 'integrated'`; n8n 1.123, 2.8 and 2.41 give it), else ''. n8n gives the calling
 * execution only, not the one that called that: a sub-workflow two calls deep is bound to the
 * middle one.
 */
export function parentExecutionId(ctx: IExecuteFunctions): string {
	return offered(() => {
		const read = (ctx as { getExecutionContext?: () => unknown }).getExecutionContext;
		if (typeof read !== 'function') return undefined;
		const context = read.call(ctx) as { parentExecutionId?: unknown } | undefined;
		const parent = context?.parentExecutionId;
		return typeof parent === 'string' || typeof parent === 'number' ? parent : undefined;
	});
}

/**
 * The key of one item of a sub-workflow's run (outside r22-money F1). Every run of a sub-workflow
 * is a new execution, with a new ID: a parent's Retry On Fail on its Execute Workflow node runs the
 * sub-workflow again as another execution, and a key of the sub-workflow's execution would change,
 * so a payment already made, or whose answer was lost, would be sent again as a new one. So the
 * key names the parent's execution instead, with this workflow (`scope`), node and run index, and
 * what the item sends: a SHA-256 of the node's parameters evaluated for the item (the amount,
 * requisite, External ID, quote or QR code its expressions give, whatever node they read), and
 * its occurrence among the items that send the same (the n-th input item with this request),
 * never its index (outside r24-money: a sub-workflow fed by an unordered query or listing gets
 * the same items in another order on the parent's retry, and a key bound to the index would
 * send every payout again) nor its JSON (outside r25-money F1: items that reach the node alike,
 * `{checked:true}`, whose payments come from `$('Trigger').item`, swapped keys in another order
 * and were refused as another payment's). The parent's retry sends the same key for the same
 * payment wherever it stands, and the memory of sent writes (write.ts) answers it as Retry On
 * Fail is answered: a paid item with its first answer, an unknown one unknown, without a
 * request. Another request is another key; two items sending the same in one call are two
 * payments (the first and the second of that request), interchangeable in any order.
 *
 * The cost (docs/assumptions.md, "A sub-workflow's key"): nothing n8n gives a sub-workflow tells a
 * retry of the parent's node from a second call of the sub-workflow in the same parent execution
 * (a loop, an Execute Workflow node run once per item); where that call sends the same request
 * (as often, whatever else its items hold), it is answered with the first answer, paid once, as an item run
 * without an execution ID is within HELD_MS. A Retry of the parent from the Executions list is a
 * new parent execution: new keys, as for any workflow.
 */
function parentKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	scope: string,
	parent: string,
	run: string,
): string {
	const node = ctx.getNode() as { id?: unknown; parameters?: unknown };
	const { content, occurrence } = itemRequest(ctx, itemIndex, node.parameters ?? null);
	const parts = [parent, String(node.id ?? ''), run, content, String(occurrence)];
	const key = fitted(identity('pay', [scope, 'parent'], parts), IDEMPOTENCY_KEY_MAX_LENGTH);
	keepParentKey(key);
	return key;
}

/** The request digests of an input's items (the node's parameters evaluated per item), by input. */
const inputRequests = new WeakMap<object, string[]>();

/** Parameters that name no part of the request (the key itself, which is empty here). */
const NOT_SENT = new Set(['idempotencyKey']);

/**
 * What input item `itemIndex` sends, whatever its place: 32 hex characters of SHA-256 over every
 * parameter the node has saved, evaluated for that item (its expressions resolved as the
 * operation reads them), and how many items before it send the same (0 for the first). Where
 * n8n gives no input list, the item alone (occurrence 0). A parameter that cannot be evaluated
 * for an item counts by its saved text and the error (the operation refuses such an item before
 * anything is sent).
 */
function itemRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
	parameters: unknown,
): { content: string; occurrence: number } {
	const names =
		parameters !== null && typeof parameters === 'object'
			? Object.keys(parameters)
					.filter((name) => !NOT_SENT.has(name))
					.sort()
			: [];
	const digest = (index: number) => {
		const evaluated: Record<string, unknown> = {};
		for (const name of names) {
			try {
				evaluated[name] = ctx.getNodeParameter(name, index, null) ?? null;
			} catch (error) {
				evaluated[name] = {
					saved: (parameters as Record<string, unknown>)[name] ?? null,
					unresolved: error instanceof Error ? error.message : String(error),
				};
			}
		}
		let text: string;
		try {
			text = canonicalJson(evaluated);
		} catch {
			text = String(JSON.stringify(evaluated));
		}
		return createHash('sha256').update(text).digest('hex').slice(0, 32);
	};
	let items: unknown[] | undefined;
	try {
		items = ctx.getInputData();
	} catch {
		items = undefined;
	}
	if (!Array.isArray(items) || itemIndex >= items.length) {
		return { content: digest(itemIndex), occurrence: 0 };
	}
	let requests = inputRequests.get(items);
	if (!requests) {
		requests = items.map((_item, index) => digest(index));
		inputRequests.set(items, requests);
	}
	const content = requests[itemIndex];
	let occurrence = 0;
	for (let i = 0; i < itemIndex; i += 1) if (requests[i] === content) occurrence += 1;
	return { content, occurrence };
}

/** The JSON of input item `itemIndex`, or undefined where n8n gives none. */
function itemJson(ctx: IExecuteFunctions, itemIndex: number): unknown {
	try {
		return ctx.getInputData()[itemIndex]?.json;
	} catch {
		return undefined;
	}
}

/**
 * When each key bound to a parent execution was first formed in this process: its writes are held
 * HELD_MS from then (write.ts heldUntil), whether or not the sub-workflow's node run ended
 * normally, since the parent may still retry it (a later node of the sub-workflow failed). At most
 * MAX_KEPT; those past HELD_MS go first, then the oldest.
 */
const parentKeys = new Map<string, number>();

function keepParentKey(key: string, now = Date.now()): void {
	const kept = parentKeys.get(key);
	if (kept !== undefined && now - kept < HELD_MS) return;
	parentKeys.delete(key);
	parentKeys.set(key, now);
	if (parentKeys.size <= MAX_KEPT) return;
	for (const [other, at] of parentKeys) if (now - at >= HELD_MS) parentKeys.delete(other);
	if (parentKeys.size > MAX_KEPT) parentKeys.delete(parentKeys.keys().next().value as string);
}

/**
 * The random keys of items run without an execution ID (outside r19-money F3, r21-money F1): by
 * the item's place (instance, workflow, node, run index, item index) and content (the node's
 * parameters as saved and the item's JSON), with when it was formed.
 */
const unexecuted = new Map<string, { key: string; at: number }>();

/**
 * The key of an item run without an execution ID (nothing n8n gives stays stable across tries):
 * a random one, never a shared one, kept for HELD_MS from when it was formed unless its write was
 * proved not paid (settleUnexecuted). Kept while the write is sending or unknown, and kept when it
 * was paid (outside r21-money F1): Retry On Fail runs every item of the node again, and an item
 * already paid must get its first answer back under its first key, not a new key and a second
 * payment. Only an item refused before the service acted (not_paid) gets a new key next time: it
 * is sent again, which is safe.
 *
 * Without an execution ID nothing n8n gives tells a Retry On Fail from a separate run of the same
 * node with the same item (same run index, same parameters, same JSON): within HELD_MS such a run
 * is answered with the first answer (paid once), never paid again; after HELD_MS, or with other
 * item data, parameters or run index, it is a new payment under a new key.
 */
function unexecutedKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const node = ctx.getNode() as { id?: unknown; parameters?: unknown };
	const run =
		offered(() => ctx.getWorkflowDataProxy(itemIndex).$runIndex) ||
		offered(() => (ctx as { getRunIndex?: () => number }).getRunIndex?.());
	const item = itemJson(ctx, itemIndex);
	const where = [
		offered(() => ctx.getInstanceId()),
		offered(() => ctx.getWorkflow().id),
		String(node.id ?? ''),
		run || '0',
		String(itemIndex),
	].join('/');
	const content = createHash('sha256')
		.update(canonicalJson({ parameters: node.parameters ?? null, item: item ?? null }))
		.digest('hex');
	const slot = `${where} ${content}`;
	const now = Date.now();
	const kept = unexecuted.get(slot);
	if (kept && now - kept.at < HELD_MS) return kept.key;
	const key = identity('pay', ['random'], [randomUUID()]);
	unexecuted.delete(slot);
	unexecuted.set(slot, { key, at: now });
	if (unexecuted.size > MAX_KEPT) dropOldestUnexecuted(now);
	return key;
}

/** Makes room among the kept keys: every one past HELD_MS, else the oldest (the map's first). */
function dropOldestUnexecuted(now: number): void {
	for (const [slot, kept] of unexecuted) {
		if (now - kept.at >= HELD_MS) unexecuted.delete(slot);
	}
	if (unexecuted.size > MAX_KEPT) unexecuted.delete(unexecuted.keys().next().value as string);
}

/**
 * When the item run without an execution ID that holds `key` formed it, or when a sub-workflow's
 * key bound to its parent execution was formed (parentKey): its write is held in the memory of
 * sent writes until HELD_MS after it (write.ts heldUntil); undefined for any other key.
 */
export function unexecutedSince(key: string): number | undefined {
	for (const kept of unexecuted.values()) if (kept.key === key) return kept.at;
	return parentKeys.get(key);
}

/**
 * A write under `key` was proved not paid (refused before the service acted, or released by
 * Resolve Outcome): an item run without an execution ID that holds it gets a new key next time. A
 * paid or unknown write keeps its key (unexecutedKey).
 */
export function settleUnexecuted(key: string): void {
	for (const [slot, kept] of unexecuted) {
		if (kept.key === key) unexecuted.delete(slot);
	}
}

/** Forgets every kept key (tests: each case starts in a new process). */
export function forgetUnexecuted(): void {
	unexecuted.clear();
	parentKeys.clear();
}

/**
 * Whether the node runs as an AI agent's tool. n8n derives a tool variant of every
 * `usableAsTool` node type (`…companyPaymentsTool`: no main input, one `ai_tool` output) and
 * only that variant can be connected to an agent, so its type name is the signal every
 * supported n8n (1.123 to 2.41) gives, the same one its `'@tool'` display option reads. Where
 * the agent runs the tool through the workflow engine (AI Agent 3.x) the node also carries
 * `rewireOutputLogTo: 'ai_tool'`; where it runs it itself (older agents, n8n 2.x) the context's
 * `isToolExecution()` says so. Any one of them is enough.
 */
export function runsAsAgentTool(ctx: IExecuteFunctions): boolean {
	try {
		const node = ctx.getNode() as { type?: unknown; rewireOutputLogTo?: unknown };
		if (typeof node.type === 'string' && node.type.endsWith('Tool')) return true;
		if (node.rewireOutputLogTo === 'ai_tool') return true;
	} catch {
		// No node in this context: fall through to the context's own answer.
	}
	try {
		const ask = (ctx as { isToolExecution?: () => boolean }).isToolExecution;
		return typeof ask === 'function' && ask.call(ctx) === true;
	} catch {
		return false;
	}
}

/** Name of the tool-only field that names the payment in the user's world (tool mode). */
export const PAYMENT_REFERENCE = 'paymentReference';
/** The field's label, as errors name it. */
export const PAYMENT_REFERENCE_LABEL = 'Payment Reference';

/**
 * The payment reference of a money-moving tool call: the Payment Reference field (by default
 * filled by the model through `$fromAI('paymentReference')`, or mapped by the user), as exact
 * text. '' when there is none.
 */
export function paymentReference(ctx: IExecuteFunctions, itemIndex: number): string {
	let value: unknown;
	try {
		value = ctx.getNodeParameter(PAYMENT_REFERENCE, itemIndex, '');
	} catch {
		value = '';
	}
	// As a tool it is made canonical (canonicalReference), so white space around it is dropped;
	// elsewhere it is sent as given or refused (outside r24-money F5).
	return exactText(ctx, itemIndex, value, PAYMENT_REFERENCE_LABEL, runsAsAgentTool(ctx));
}

/** The reference of a money-moving tool call; a call without one is refused before anything is sent. */
function requiredReference(ctx: IExecuteFunctions, itemIndex: number): string {
	const reference = paymentReference(ctx, itemIndex);
	if (reference === '') {
		throw new NodeOperationError(
			ctx.getNode(),
			`${PAYMENT_REFERENCE_LABEL} is required when an AI agent or MCP client moves money`,
			{ itemIndex, description: 'Nothing was sent to the payment service.' },
		);
	}
	return reference;
}

/**
 * The External ID this tool call's payment carries: the reference as it names the payment
 * (`referenceExternalId`), so that the user finds it under their own reference in the cabinet and
 * in webhook events, and any later call with the same reference (another session, another n8n
 * process) finds it; undefined outside tool mode.
 */
export function toolExternalId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	maxLength: number,
): string | undefined {
	if (!runsAsAgentTool(ctx)) return undefined;
	return referenceExternalId(requiredReference(ctx, itemIndex), maxLength);
}

/** The Idempotency Key field's label, as errors name it. */
export const IDEMPOTENCY_KEY_LABEL = 'Idempotency Key';

/** Whether the node's raw Idempotency Key parameter is set (text or an expression), not its default. */
function keyParameterSet(ctx: IExecuteFunctions): boolean {
	let raw: unknown;
	try {
		raw = (ctx.getNode().parameters as Record<string, unknown> | undefined)?.idempotencyKey;
	} catch {
		return false;
	}
	return raw !== undefined && raw !== null && raw !== '';
}

/**
 * The Idempotency Key the user set for this item, normalised once as the header text it sends
 * (r7-money-b F1, F3); '' when the field is not set (the key is then derived). Every judgement of
 * a key (moneyKey, keyNamesPayment, retryNote) reads it here, so a key that an expression hands
 * over as a number (`{{ $json.invoiceNo }}` = 123) is the text key "123" in every respect. Refused
 * before anything is sent, naming the field, the rule and the value:
 * - a number that is not a safe integer (12.5, 1e21, 2^53 + 1, NaN): it has no one exact text a
 *   payment would be named by (a fraction prints differently from the source, a big integer has
 *   already lost digits); true/false, lists and objects (exactText);
 * - a value that is blank (empty, spaces, a tab) while the field is set: an expression that
 *   resolves blank for this item (a blank invoice number) would otherwise be replaced by a key of
 *   this execution, and a Retry of the execution (a new execution ID) would pay it again.
 */
export function givenKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const field = IDEMPOTENCY_KEY_LABEL;
	const value: unknown = ctx.getNodeParameter('idempotencyKey', itemIndex, '');
	const given = exactText(ctx, itemIndex, value, field);
	if (given !== '') return given;
	const blankText = typeof value === 'string' && value !== '';
	if (blankText || keyParameterSet(ctx)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${field} must not be empty when it is set, got ${value === undefined || value === null ? 'nothing' : JSON.stringify(value)}`,
			{
				itemIndex,
				description: `${field} is set (an expression or text) but is blank for this item. A key derived from the execution instead would change on a Retry of the execution, which could then pay this item again. Give this item a key (e.g. its invoice number), or clear the field to derive keys from the execution. Nothing was sent to the payment service.`,
			},
		);
	}
	return '';
}

/**
 * The Idempotency-Key of one item of a money operation, the one place it is decided:
 *
 * - as an AI agent's or MCP client's tool, the payment reference's identity (`referenceKey`: the
 *   same reference by any route names the same payment of the operation);
 * - else the key the user set (Idempotency Key), checked and used as is;
 * - else, for an action that can happen to one record once (`once`, e.g. accepting a quote), a
 *   key of that record alone (`onceKey`): Retry On Fail, a re-run from the execution list, a loop
 *   or another workflow accepting the same quote all send the same key;
 * - else the key of this item of this execution (`executionKey`).
 */
export function moneyKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	contract: MoneyContract,
	record?: OnceFor,
): string {
	if (runsAsAgentTool(ctx)) {
		const resource = String(ctx.getNodeParameter('resource', itemIndex, ''));
		const operation = String(ctx.getNodeParameter('operation', itemIndex, ''));
		return referenceKey(requiredReference(ctx, itemIndex), `${resource}.${operation}`);
	}
	const field = IDEMPOTENCY_KEY_LABEL;
	const given = givenKey(ctx, itemIndex);
	if (given.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${field} must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, got ${given.length}`,
			{
				itemIndex,
				description: `Value starts with "${given.slice(0, 40)}…". Nothing was sent to the payment service.`,
			},
		);
	}
	if (given !== '' && !PRINTABLE.test(given)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${field} must be printable ASCII without spaces, got "${given}"`,
			{ itemIndex, description: 'Nothing was sent to the payment service.' },
		);
	}
	if (given !== '') return given;
	if (contract.key === 'once' && record) return onceKey(record);
	return executionKey(ctx, itemIndex);
}

/**
 * The identity value a money write carries in its body (its contract's identity field) as a
 * tool: the payment's identity. An External ID the user or the model set in tool mode is refused:
 * the payment must carry the node's own identity, or nothing found later could prove it is this
 * payment (another process, a restart, a call that leaves the field out).
 */
export function carriedIdentity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	contract: MoneyContract,
	given: string | undefined,
	label: string,
): string | undefined {
	if (!contract.identity) return given;
	const identity = toolExternalId(ctx, itemIndex, contract.identity.maxLength);
	if (identity === undefined) return given;
	if (given !== undefined && given !== identity) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} cannot be set when an AI agent or MCP client moves money, got "${given}"`,
			{
				itemIndex,
				description: `As a tool the node sets ${label} itself from the ${PAYMENT_REFERENCE_LABEL} ("${identity}"), so that this payment can be recognised later by any n8n process and never paid twice. Leave ${label} empty; put what names the payment in ${PAYMENT_REFERENCE_LABEL}. Nothing was sent to the payment service.`,
			},
		);
	}
	return identity;
}

/**
 * What a Retry of a failed execution (n8n's Executions list) does to the keys of the items this
 * node already paid in it (outside money test F5). n8n runs a new execution, with a new ID, from
 * the failed node, with all its input items again (packages/cli/src/executions/execution.service.ts
 * retry, `retryOf`), and a node is not told that it is a retry: a derived key names the
 * execution, so it changes. Only a key set from the item's data names the same payment then.
 */
export function retryNote(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
): string {
	let set = false;
	try {
		set = givenKey(ctx, itemIndex) !== '';
	} catch {
		set = false;
	}
	const sameKey = !contract.replayByKey
		? `the node answers a key it already sent in the same n8n process with the same credential (its API key rotated or not) with the first result, without sending it; on another worker, after a restart or with another credential it relies on the service recognising the key, which the interface document does not promise for this call, so look the paid items up first (${contract.lookUp})`
		: contract.newRequestElsewhere
			? `in this n8n process with the same credential an item already paid is answered with its order and one whose answer was lost is sent as the identical request (its first quote), which the service answers with its stored result; on another worker, after a restart or with another credential the node accepts a new quote under the key, which the interface document does not promise to recognise as a repeat, so look the paid items up first (${contract.lookUp})`
			: 'each item sends the identical request (the same quote under the same key), which the service answers with the result it stored, so nothing is paid twice';
	if (set) {
		return `A Retry of this execution sends the same Idempotency Key for each item (it is set from your data): ${sameKey}.`;
	}
	// In a sub-workflow the derived keys name the calling execution (parentKey): the parent's
	// Retry On Fail sends them again, a Retry of the parent from the Executions list does not.
	if (parentExecutionId(ctx)) {
		return `This sub-workflow's derived Idempotency-Keys name the calling execution and each item, so the calling node's Retry On Fail sends the same keys, but a Retry of the calling workflow's execution from n8n's Executions list is a new execution with new keys, and an item already paid, or whose outcome is unknown, may be paid again. Set Idempotency Key to a business reference of each item (e.g. its invoice number, {{ $json.invoiceId }}) so that a re-run sends the same key; or re-run only the items that failed. See https://www.npmjs.com/package/n8n-nodes-company-payments#operations (its "Window" on a Retry).`;
	}
	return `A Retry of this execution from n8n's Executions list runs this node again with all its items under a new execution ID, so the derived Idempotency-Keys change and an item already paid, or whose outcome is unknown, may be paid again. Set Idempotency Key to a business reference of each item (e.g. its invoice number, {{ $json.invoiceId }}) so that a re-run sends the same key; or re-run only the items that failed. See https://www.npmjs.com/package/n8n-nodes-company-payments#operations (its "Window" on a Retry).`;
}
