import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { EVENT_NAMES, eventsOf } from '../shared/contract/events';
import type { EventName } from '../shared/contract/events';
import { payoutFundsReturnedOrUnknown } from '../shared/payoutFunds';

/** The "All" choice of the Events parameter: every event, including kinds added later. */
export const ALL_EVENTS = '*';

/**
 * Name of the extra output that receives event kinds this package does not know yet. It
 * exists only when events are routed to outputs and "All" is chosen.
 */
export const OTHER_OUTPUT = 'other';

/** The label of the "other" output. */
export const OTHER_LABEL = 'Other';

interface EventKind {
	value: EventName;
	name: string;
	/** The name of its output when events are routed: at most 10 characters (the canvas cuts longer ones, e.g. "Deposit cre…"), and distinct in its first 5 characters. */
	label: string;
	description: string;
}

/** How the trigger presents each event of the contract (`contract/events.ts`); exhaustive. */
const PRESENTATION: Record<EventName, Omit<EventKind, 'value'>> = {
	'order.status_changed': {
		label: 'Order',
		name: 'Order Status Changed',
		description: 'An order changed its status (order.status_changed)',
	},
	'deposit.created': {
		label: 'Deposit',
		name: 'Deposit Created',
		description: 'A deposit to the company wallet or a user wallet was detected (deposit.created)',
	},
	'deposit.completed': {
		label: 'Credited',
		name: 'Deposit Completed',
		description: 'A deposit was credited (deposit.completed)',
	},
	'deposit.aml_failed': {
		label: 'AML failed',
		name: 'Deposit AML Failed',
		description: 'The AML check of a deposit failed (deposit.aml_failed)',
	},
	'payout.status_changed': {
		label: 'Payout',
		name: 'Payout Status Changed',
		description: 'A payout moved to another status (payout.status_changed)',
	},
	'payout.recharged': {
		label: 'Recharged',
		name: 'Payout Recharged',
		description: 'A refunded payout returned to success and was charged again (payout.recharged)',
	},
	'card.assigned': {
		label: 'Card',
		name: 'Card Assigned',
		description: 'A pending card request was fulfilled (card.assigned)',
	},
};

/**
 * The event kinds of the interface document, in the order of the document's table. Routed
 * outputs follow ROUTED_EVENTS_BY_VERSION (below), whatever order the user picked.
 */
export const EVENT_KINDS: readonly EventKind[] = EVENT_NAMES.map((value) => ({
	value,
	...PRESENTATION[value],
}));

export const EVENT_VALUES: readonly string[] = EVENT_KINDS.map((kind) => kind.value);

/** Options of the Events parameter: "All" first, then the kinds by name. */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Every event, including kinds the service adds later',
	},
	...[...EVENT_KINDS]
		.sort((a, b) => a.name.localeCompare(b.name))
		.map(({ name, value, description }) => ({ name, value, description })),
];

export interface OutputLayoutConfig {
	all: string;
	other: string;
	/** Every event of the contract, in the table's order. */
	events: readonly string[];
	/** The events with their own output under "All Events", per node version (frozen). */
	routed: Readonly<Record<string, readonly string[]>>;
	/** The newest node version of `routed`, for a version it does not name. */
	newest: string;
	/** Output label per event value, and for `other`. */
	labels: Readonly<Record<string, string>>;
	type: string;
}

export interface OutputDefinition {
	type: string;
	displayName?: string;
}

/** The events versions 1 and 2 shipped with, the interface document's table of that time. */
const ROUTED_AT_FIRST = [
	'order.status_changed',
	'deposit.created',
	'deposit.completed',
	'deposit.aml_failed',
	'payout.status_changed',
	'payout.recharged',
	'card.assigned',
] as const satisfies readonly EventName[];

/**
 * The events that get their own output under "Route Events to Separate Outputs" with "All
 * Events", per node version, in output order; "Other" follows them. A version's list is frozen
 * once it ships: saved workflows are wired by output index, so a list that grew would move
 * "Other" and hand an old wire another event. An event added to the contract later reaches
 * "Other" in these versions (and gets its own output when picked by name, after theirs); a node
 * version that gives it an output under "All Events" is a new version with a longer list.
 * `test/unit/output-stability.test.ts` adds events to the contract and checks that no output of
 * a shipped version moves.
 */
export const ROUTED_EVENTS_BY_VERSION = {
	1: ROUTED_AT_FIRST,
	2: ROUTED_AT_FIRST,
} as const satisfies Record<number, readonly EventName[]>;

/**
 * The node's outputs for its parameters and version. n8n evaluates this in the editor and in the
 * backend through the `outputs` expression below (the way its Webhook node computes one output
 * per HTTP method), and the webhook uses it to pick the output of an event: one source for both.
 *
 * It is turned into source text for the expression, so it must not use anything from outside
 * its own body: everything it needs comes in through `config`.
 */
export function configuredOutputs(
	parameters: IDataObject,
	version: unknown,
	config: OutputLayoutConfig,
): OutputDefinition[] {
	const picked = Array.isArray(parameters.events) ? parameters.events : [config.all];
	if (parameters.routeByEvent !== true) return [{ type: config.type }];
	const all = picked.length === 0 || picked.indexOf(config.all) !== -1;
	const frozen = config.routed[String(version)] || config.routed[config.newest];
	// The version's own events first, in its order; events added to the contract after them.
	const order = frozen.slice();
	for (let i = 0; i < config.events.length; i++) {
		if (order.indexOf(config.events[i]) === -1) order.push(config.events[i]);
	}
	const outputs: OutputDefinition[] = [];
	for (let i = 0; i < order.length; i++) {
		const event = order[i];
		const own = all ? frozen.indexOf(event) !== -1 : picked.indexOf(event) !== -1;
		if (own) outputs.push({ type: config.type, displayName: config.labels[event] || event });
	}
	if (all) outputs.push({ type: config.type, displayName: config.labels[config.other] });
	return outputs;
}

const OUTPUT_LABELS: Record<string, string> = { [OTHER_OUTPUT]: OTHER_LABEL };
for (const kind of EVENT_KINDS) OUTPUT_LABELS[kind.value] = kind.label;

const ROUTED_VERSIONS = Object.keys(ROUTED_EVENTS_BY_VERSION);

/** The node versions whose outputs are frozen, the newest last. */
export const OUTPUT_VERSIONS: readonly number[] = ROUTED_VERSIONS.map(Number).sort((a, b) => a - b);

export const OUTPUT_LAYOUT: OutputLayoutConfig = {
	all: ALL_EVENTS,
	other: OTHER_OUTPUT,
	events: EVENT_VALUES,
	routed: ROUTED_EVENTS_BY_VERSION,
	newest: String(OUTPUT_VERSIONS[OUTPUT_VERSIONS.length - 1]),
	labels: OUTPUT_LABELS,
	type: NodeConnectionTypes.Main,
};

/**
 * The node's `outputs`: an expression n8n evaluates with the node's parameters and version
 * (`$nodeVersion`). `type`, a string, is the last key of the layout on purpose: a `}}` inside
 * the expression would end it early.
 */
export const OUTPUTS_EXPRESSION =
	`={{(${configuredOutputs.toString()})($parameter, $nodeVersion, ${JSON.stringify(OUTPUT_LAYOUT)})}}` as const;

/** The event value (or `other`) behind each output label. */
const KEY_BY_LABEL = new Map(Object.entries(OUTPUT_LABELS).map(([key, label]) => [label, key]));

/**
 * The node's subtitle on the canvas: "All events", or the names of the picked events. Turned
 * into source text for the subtitle expression like `configuredOutputs`, so it uses nothing
 * from outside its own body.
 */
export function eventsSubtitle(
	events: unknown,
	all: string,
	names: Readonly<Record<string, string>>,
): string {
	const list = Array.isArray(events) ? events : [];
	if (list.length === 0 || list.indexOf(all) !== -1) return 'All events';
	const picked: string[] = [];
	for (let i = 0; i < list.length; i++) picked.push(names[list[i]] || String(list[i]));
	return picked.join(', ');
}

const DISPLAY_NAMES: Record<string, string> = Object.fromEntries(
	EVENT_KINDS.map((kind) => [kind.value, kind.name]),
);

/**
 * The node's `subtitle`: an expression n8n evaluates with the node's parameters. The names go
 * last, as a flat object: a `}}` inside the expression would end it early.
 */
export const SUBTITLE_EXPRESSION =
	`={{(${eventsSubtitle.toString()})($parameter["events"], ${JSON.stringify(ALL_EVENTS)}, ${JSON.stringify(DISPLAY_NAMES)})}}` as const;

/** What the webhook needs to filter and route: computed once per delivery from the parameters. */
export interface EventRouting {
	/** Every event passes (the user chose "All", or nothing). */
	all: boolean;
	/** The events the user picked (without "All"). */
	picked: ReadonlySet<string>;
	/** The event value (or `other`) of each output in order when routing is on; undefined for the single output. */
	outputs?: string[];
}

export function eventRouting(
	events: unknown,
	routeByEvent: boolean,
	version: number,
): EventRouting {
	const list = Array.isArray(events)
		? events.filter((e): e is string => typeof e === 'string')
		: [];
	const all = list.length === 0 || list.includes(ALL_EVENTS);
	const routing: EventRouting = { all, picked: new Set(list.filter((e) => e !== ALL_EVENTS)) };
	if (routeByEvent) {
		routing.outputs = configuredOutputs({ events: list, routeByEvent }, version, OUTPUT_LAYOUT).map(
			(output) => KEY_BY_LABEL.get(output.displayName ?? '') ?? '',
		);
	}
	return routing;
}

/**
 * The output index for an event, or -1 when the event is not wanted (answered 200, no
 * execution). Unknown event kinds pass only when "All" is chosen; with routing on they go to
 * the "other" output.
 */
export function outputIndex(routing: EventRouting, event: string | null): number {
	const wanted = routing.all || (event !== null && routing.picked.has(event));
	if (!wanted) return -1;
	if (!routing.outputs) return 0;
	const index = event === null ? -1 : routing.outputs.indexOf(event);
	return index !== -1 ? index : routing.outputs.indexOf(OTHER_OUTPUT);
}

/** Events whose payload is a deposit (company wallet or, with `externalId`, a user wallet). */
const DEPOSIT_EVENTS: ReadonlySet<string> = new Set(eventsOf('deposit'));

/** Events whose payload is a payout. */
const PAYOUT_EVENTS: ReadonlySet<string> = new Set(eventsOf('payout'));

/**
 * Fields the trigger derives from the event body: for deposits, which wallet it belongs to
 * and its `externalId` (user-wallet deposits carry it, company deposits do not); for payouts,
 * `fundsReturned`.
 */
export function derivedFields(event: string | null, payload: IDataObject): IDataObject | undefined {
	if (event === null) return undefined;
	if (DEPOSIT_EVENTS.has(event)) {
		const externalId = payload.externalId;
		const userWallet = typeof externalId === 'string' && externalId !== '';
		return {
			externalId: userWallet ? externalId : null,
			walletType: userWallet ? 'user' : 'company',
		};
	}
	if (PAYOUT_EVENTS.has(event)) {
		const fundsReturned = payoutFundsReturnedOrUnknown(payload, event);
		if (fundsReturned !== null) return { fundsReturned };
		// A `refunded` written as 1 or "true": its meaning is not shown, so it is not read as false.
		return {
			fundsReturned: null,
			fundsReturnedNote: `refunded was ${JSON.stringify(payload.refunded)}, not a JSON boolean as the document shows: whether the funds are back is unknown; read the payout (Company Payments → Payout → Get: fundsReturned from refundedAt)`,
		};
	}
	return undefined;
}
