import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	CARD_REQUEST_PENDING_STATUS,
	EXTERNAL_ID_MAX_LENGTH,
	LIST_ITEMS_KEYS,
} from '../../shared/contract/assumptions';
import { listRecords } from '../../shared/pager';
import { idempotencyKeyField } from '../common/fields';
import {
	carriedIdentity,
	markOutcome,
	moneyWrite,
	readMeasured,
	readRecordId,
	withSentWrite,
} from '../../shared/money';
import type { MoneyCall, MoneyContract, Settled } from '../../shared/money';
import type { OperationDefinition } from '../types';
import { readCardExternalId } from './fields';
import { segment } from '../common/validation';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { withNodeFields } from '../../shared/serviceFields';
import { isObject, recordText } from '../../shared/contract/guards';
import { CONFLICT, MONEY } from '../common/words';

/** Card states after a closure: closing, closed, and retired (legacy, as closed). */
const CLOSED_CARD = ['closing', 'closed', 'retired'];

/** The card state the document calls queued. */
const CARD_QUEUED_STATUS = 'requested';

const PENDING_NOTE =
	'No card was in stock, so the request is pending and the amount for the card stays reserved. The card arrives later with the card.assigned webhook event (use the Company Payments Trigger), which carries the external ID of this request.';

function issuedNote(cardId: string | null): string {
	return cardId
		? `A card was issued: card ${cardId}. Use Card > Get or Get Card Number and CVV with this ID.`
		: 'The service reports the request fulfilled but names no card ID. Find the card with Card > Get Many filtered by the external ID of this request.';
}

/** Plain words for the request outcomes that issued no card. */
const NO_CARD: Record<string, { message: string; description: string }> = {
	cancelled: {
		message: 'No card was issued: the card request was cancelled',
		description:
			'The service cancelled the card request. Check the company balance (Company Wallet > Get Balance, frozenBalance) to see whether the amount reserved for the card was released before you request again with a new Idempotency Key: a new request reserves again.',
	},
	failed: {
		message: 'No card was issued: the card request failed',
		description:
			"The card issuer could not issue a card for this request. Check the company's card settings and balance (frozenBalance: whether the reserve was released) before you request again with a new Idempotency Key: a new request reserves again.",
	},
};

/**
 * Turns the answer of POST /cards/request into an output that says plainly what happened, for
 * every documented request status: a card issued (request fulfilled, or status assigned with the
 * card), a request pending until a card is in stock, or no card at all (cancelled, failed:
 * reported as an error in plain words).
 */
function describeOutcome(ctx: IExecuteFunctions, itemIndex: number, answer: unknown): IDataObject {
	const body = isObject(answer) ? answer : {};
	const card = isObject(body.card) ? body.card : null;
	const request = isObject(body.request) ? body.request : null;
	const status = recordText(body.status);
	const requestStatus = recordText(request?.status);
	const cardStatus = recordText(card?.status);
	// The request's own status decides first: it is the document's record of this request
	// (pending, fulfilled, cancelled, failed). The top-level `status` is documented as always
	// `assigned`, so alone it proves nothing. A card in `failed` is no card issued, whatever the
	// request says (outside r10-money F2: request fulfilled with its card failed): the issuer could
	// not issue it, as docs/operations.md says.
	const ended =
		requestStatus === 'cancelled' || requestStatus === 'failed'
			? requestStatus
			: cardStatus === 'failed'
				? 'failed'
				: undefined;
	// A card closing, closed or retired in the answer of its own request (outside r19-money) is no
	// card issued by it: the document shows a request fulfilled with an assigned card, and a card
	// closes only on a closure asked later; it reads as no combination issued or pending (unknown).
	const closedCard = cardStatus !== null && CLOSED_CARD.includes(cardStatus);
	const issued =
		ended === undefined &&
		!closedCard &&
		(requestStatus === 'fulfilled' ||
			cardStatus === 'assigned' ||
			(card !== null && cardStatus === null && status === 'assigned'));
	if (issued) {
		const cardId = recordText(card?.id) ?? recordText(request?.cardId);
		return withNodeFields(body, {
			outcome: 'assigned',
			status: status ?? requestStatus ?? 'assigned',
			cardId,
			card,
			request,
			note: issuedNote(cardId),
		});
	}
	const pending = CARD_REQUEST_PENDING_STATUS;
	const queued =
		ended === undefined &&
		!closedCard &&
		(requestStatus === pending ||
			cardStatus === CARD_QUEUED_STATUS ||
			status === CARD_QUEUED_STATUS ||
			status === pending);
	if (queued) {
		return withNodeFields(body, {
			outcome: 'pending',
			status: status ?? requestStatus ?? pending,
			cardId: recordText(card?.id) ?? recordText(request?.cardId),
			card,
			request,
			note: PENDING_NOTE,
		});
	}
	const what = ended ?? requestStatus ?? cardStatus ?? status ?? '';
	const words = NO_CARD[what] ?? {
		message: `No card is known to be issued: the answer names request status "${requestStatus}", card status "${cardStatus}" and status "${status}", a combination this node does not read as issued or pending`,
		description:
			'The documented request statuses are pending, fulfilled, cancelled and failed, and an issued card is assigned. Check the request and the company balance with the service before requesting again.',
	};
	// No card, but the reserve taken at the request may still be held (the document does not
	// say when it is released): money may have moved, so the outcome is not "not paid".
	throw markOutcome(
		new NodeApiError(ctx.getNode(), body as JsonObject, {
			message: words.message,
			description: `${words.description}\nPOST /cards/request answered with status "${status}", request status "${requestStatus}" and card status "${cardStatus}"${request?.id ? ` (request ${String(request.id)})` : ''}.`,
			itemIndex,
		}),
		'unknown',
	);
}

/**
 * The External ID an answer or a found card carries: in Card Request's answer its request's, else
 * its card's (the ID moves to the card when it is issued), never a top-level field the document
 * does not show there (outside r21-money F2); a card found by Resolve Outcome carries its own.
 */
function externalIdOf(answer: IDataObject): unknown {
	const request = isObject(answer.request) ? answer.request : undefined;
	const card = isObject(answer.card) ? answer.card : undefined;
	if (request || card) return request?.externalId ?? card?.externalId;
	return answer.externalId;
}

/** The External ID the request is sent with: the user's, or as a tool the payment's identity. */
function requestedExternalId(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const given = readCardExternalId(
		ctx,
		itemIndex,
		ctx.getNodeParameter('externalId', itemIndex, ''),
	);
	return carriedIdentity(ctx, itemIndex, money, given, 'External ID');
}

/**
 * Why the card's ID (card.id) or the card its request names (request.cardId) is shown but is no
 * ID (money/recordId.ts readRecordId), or undefined when each is an ID or not shown.
 */
function cardIdNotAnId(card: IDataObject, request: IDataObject): string | undefined {
	for (const [record, field, name] of [
		[card, 'id', 'card.id'],
		[request, 'cardId', 'request.cardId'],
	] as const) {
		const reading = readRecordId(record, field);
		if (reading.kind === 'notAnId') return `${name} ${reading.shown} is ${reading.why}, no ID`;
	}
	return undefined;
}

/** Card states reached only through a request that was made (its reserve taken). */
const REQUESTED_CARD = ['requested', 'assigned', 'closing', 'closed', 'retired'];

/**
 * What a card found by the request's External ID proves of Card Request (Resolve Outcome). A card
 * that carries it was requested; a `failed` card (the issuer could not issue) does not say whether
 * its reserve was released (the document is silent), so it stays unknown.
 */
function cardRequested(record: IDataObject): Settled {
	const status = String(record.status);
	if (status === 'requested') {
		return {
			outcome: 'paid',
			why: 'The card request was made: its card is queued (status requested) and its reserve is held until a card is in stock (card.assigned).',
		};
	}
	if (REQUESTED_CARD.includes(status)) {
		return {
			outcome: 'paid',
			why: `The card request was made and a card issued (status ${status}): its opening fee and deposit were reserved.`,
		};
	}
	return {
		outcome: 'unknown',
		why:
			status === 'failed'
				? 'The card request was made, but the issuer could not issue the card (status failed); the document does not say whether its reserve was released: check frozenBalance.'
				: `The card was found in status "${status}", which the document does not list.`,
	};
}

/**
 * Reserves the card's opening fee and minimum deposit. The document requires a key ("unique per
 * attempt") but promises no stored answer for a repeat. The card carries an External ID (unique
 * within the company): as a tool it is the payment's identity, and GET /cards filters by it.
 */
const money: MoneyContract = {
	what: 'the card may have been requested and its reserve taken',
	lookUp:
		'Card > Get Many (with the External ID, if you set one; set one on every card request so it can be found) for a card requested just now',
	replayByKey: false,
	// Its own External ID taken by its own earlier attempt (a re-run): unknown, never not paid.
	ownRefusals: ['CARD_EXTERNAL_ID_TAKEN'],
	// A 2xx that names no request, card or External ID (`{"ok":true}`) shows nothing was made:
	// unknown with its sent write (outside r9-money F10), as for Payout Create.
	answerIsRecord: true,
	// The request record is what this write made (the document shows its id and createdAt); its
	// card may come from stock, made long before. A request made before the send, or one already
	// answered to another write, is unknown (r15-money F4: the money module's one rule).
	made: (answer) => (isObject(answer.request) ? answer.request : undefined),
	// Its card is tied to its request (r19-money F1, r21-money F2). A card shown issued (assigned,
	// or with no status of its own beside a fulfilled request) is this request's only when the
	// request names it (cardId: an empty end is no proof, and a pending request names none, so a
	// card beside it is not its card issued) and it carries exactly the External ID this write sent
	// (it "moves to the card when it is issued": none when none was sent). A card not issued (queued,
	// failed, closed) is judged by its state, its ties where both ends are shown. The request's own
	// External ID, where it still shows one, is the one sent too.
	ties: (answer, sent) => {
		const request = isObject(answer.request) ? answer.request : undefined;
		const card = isObject(answer.card) ? answer.card : undefined;
		if (!request || !card) return [];
		const sentId = sent?.externalId;
		const cardStatus = recordText(card.status);
		const issued =
			cardStatus === 'assigned' ||
			(cardStatus === null && recordText(request.status) === 'fulfilled');
		return [
			{
				name: "the card's External ID (card.externalId)",
				shown: card.externalId,
				bound: sentId,
				boundBy: 'the External ID this request sent',
				rule: issued ? ('exact' as const) : undefined,
			},
			{
				name: "the request's External ID (request.externalId)",
				shown: request.externalId,
				bound: sentId,
				boundBy: 'the External ID this request sent',
			},
			{
				name: "the card's External ID (card.externalId)",
				shown: card.externalId,
				bound: request.externalId,
				boundBy: "the request's External ID (request.externalId)",
			},
			{
				name: 'the card answered (card.id)',
				shown: card.id,
				bound: request.cardId,
				boundBy: 'the card the request names (request.cardId)',
				rule: issued ? ('required' as const) : undefined,
				// An issued card carries an ID by the money module's one rule (outside r24-money F4):
				// card.id or request.cardId 12.5, -3, true or "\u200b" names no card.
				notAnId: cardIdNotAnId(card, request),
			},
		];
	},
	key: 'perItem',
	identity: { field: 'externalId', answered: externalIdOf, maxLength: EXTERNAL_ID_MAX_LENGTH },
	details: [
		{
			// As a tool the payment's identity; one of the model's own is refused (before any request).
			name: 'externalId',
			asked: (ctx, i) => requestedExternalId(ctx, i),
			answered: externalIdOf,
		},
	],
	async lookup(ctx, itemIndex, identity) {
		return await listRecords.call(ctx, {
			path: ENDPOINTS.cards,
			qs: { externalId: identity },
			itemsKey: LIST_ITEMS_KEYS.cards,
			itemIndex,
			returnAll: true,
		});
	},
	async read(ctx, itemIndex, record) {
		return await readMeasured(ctx, itemIndex, `${ENDPOINTS.cards}/${segment(String(record.id))}`);
	},
	resolve: {
		find: 'identity',
		boundBy: 'assignedAt',
		state: cardRequested,
		notFound:
			'No card carries this External ID. A request that is still pending keeps its External ID on the request, which no documented listing shows, until a card is issued (the card.assigned event), so its absence does not prove it was not made.',
	},
};

export const request: OperationDefinition = {
	value: 'request',
	name: 'Request',
	action: 'Request a card',
	description:
		'Request a new card: it is assigned at once when one is in stock, otherwise the request stays pending until the card.assigned event. The opening fee and minimum initial deposit are reserved on the company balance.',
	kind: 'money',
	money,
	tool: {
		text: `Request a new company card; its opening fee and minimum deposit are reserved on the company balance. ${MONEY} ${CONFLICT} Needs nothing else; do not give an External ID: the node sets it from the paymentReference, so the card is found again by any later call with the same reference. Returns outcome (assigned or pending), cardId and a note.`,
	},
	docs: {
		endpoint: '`POST /cards/request`',
		permission: 'not named',
		notes:
			'Optional External ID (printable ASCII, no spaces, unique in the company; checked before sending). Always sends `Idempotency-Key`. Every documented request status is handled and said in plain words in `note`. Output `outcome`: `assigned` (a card was issued: status `assigned` with the card under `card`, or request status `fulfilled`; `cardId` names the card either way) or `pending` (no card in stock: `card` and `cardId` are null, the reserve stays held, the card arrives later with the `card.assigned` event). The status of the request decides (the top-level `status` is documented as always `assigned`). Request status `cancelled` or `failed`, or a card in `failed`, `closing`, `closed` or `retired` (whatever the request status says), is an error that says no card is known to be issued, with `paymentOutcome` unknown: the reserve taken at the request may still be held, so check `frozenBalance` before requesting again with a new Idempotency Key (a new request reserves again). A card that carries another External ID than its request, or is not the card the request names (`request.cardId`), belongs to another request: `paymentOutcome` unknown with `sentWrite`. A taken external ID fails with `CARD_EXTERNAL_ID_TAKEN` naming it.',
	},
	properties: [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'e.g. employee-42',
			description:
				'Optional. Your identifier for the card: printable ASCII without spaces, unique within the company. The card.assigned event carries it, so use it to match a pending request to its card.',
		},
		idempotencyKeyField,
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		// As a tool the External ID is the payment's identity (shared/money/key.ts).
		const externalId = requestedExternalId(this, itemIndex);
		const call: MoneyCall = {
			contract: money,
			itemIndex,
			request: {
				method: 'POST',
				path: ENDPOINTS.cardRequest,
				body: externalId === undefined ? undefined : { externalId },
				explain:
					externalId === undefined
						? undefined
						: {
								CARD_EXTERNAL_ID_TAKEN: `The external ID "${externalId}" is already used by another card or card request of this company; choose another one, or find the existing card with Card > Get Many filtered by this external ID`,
							},
			},
		};
		// A refusal of its External ID as taken (CARD_EXTERNAL_ID_TAKEN) is unknown with its sent
		// write, as a tool too (outside r9-money F2): it shows no request that is held, pending or
		// issued (a failed request keeps its External ID), only that one was made under it.
		const answer = await moneyWrite(this, call);
		try {
			const described = describeOutcome(this, itemIndex, answer);
			// An answer from an earlier run, not read again, says so (outside r10-money F7).
			const earlier = isObject(answer) ? answer.earlierAnswer : undefined;
			return earlier === undefined ? described : { ...described, earlierAnswer: earlier };
		} catch (error) {
			// No card, the reserve perhaps held: unknown, with its sent write for Resolve Outcome.
			throw withSentWrite(call, error);
		}
	},
};
