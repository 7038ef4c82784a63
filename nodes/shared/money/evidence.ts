import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import type { MoneyContract } from './contract';
import { outcomeUnknownError } from './outcome';

/*
 * The evidence rules of a money write (issue 44.2), one table, read by every money operation's
 * details and written out in docs/assumptions.md ("Evidence of a payment"): how one detail the
 * service shows compares with the detail this call asks.
 *
 * | The service shows the detail | Verdict |
 * |---|---|
 * | in full, the same value (as the service would read it) | agrees |
 * | in full, another value | differs |
 * | masked (a card or phone number), the digits the mask shows all in their places | not shown |
 * | masked, a digit the mask shows is another | differs |
 * | masked showing fewer than MASK_MIN_DIGITS digits, or a detail of a kind never masked | not shown |
 * | absent (missing, null, empty) | not shown |
 *
 * A found record proves a payment only when every detail agrees; "not shown" is never agreement.
 */

/** How a detail is compared: what kind of value it is. */
export type DetailKind =
	/** An amount, an ID or any value compared as the service would read it. */
	| 'value'
	/** A name or a bank, in the service's own spelling (case, spaces, dashes). */
	| 'text'
	/** A card or phone number: a phone when it has at most 15 digits (the asked value decides). */
	| 'requisite';

export type Verdict = 'agrees' | 'differs' | 'not_shown';

/** The ways a service may show a detail a call asks. */
export type Shown = 'shown' | 'masked' | 'absent' | 'different';

/**
 * The table above as data: what each kind of detail, shown each way, proves. A masked card or
 * phone number never agrees (r4-money-resolve F6): another card may end in the same four digits,
 * so digits the mask shows in their places are no proof of the recipient (not shown: the record
 * is read by its ID, and if still masked the payment stays unknown); a shown digit that is
 * another differs. docs/assumptions.md states it (test/docs/evidence.test.mjs checks the
 * two agree) and test/unit/evidence-rules.test.ts checks compareDetail against it for every money
 * operation and every detail.
 */
export const EVIDENCE_RULES: Readonly<Record<DetailKind, Readonly<Record<Shown, Verdict>>>> = {
	value: { shown: 'agrees', masked: 'not_shown', absent: 'not_shown', different: 'differs' },
	text: { shown: 'agrees', masked: 'not_shown', absent: 'not_shown', different: 'differs' },
	requisite: { shown: 'agrees', masked: 'not_shown', absent: 'not_shown', different: 'differs' },
};

/** Characters a service masks digits with in a card or phone number. */
const MASK_CHARACTERS = /[*•·xX#…●]/;
/** Characters that mask a value of any other kind (letters such as x can be part of an ID). */
const MASK_ANY = /[*•●…]/;
/** What a number is written with besides its digits: spaces, brackets, dashes, dots, a leading +. */
const SEPARATORS = /[\s().+-]/g;
/** Digits a masked number must show to prove anything. */
export const MASK_MIN_DIGITS = 4;
/** A phone number has at most this many digits (E.164); a card number has 16 to 19. */
const PHONE_MAX_DIGITS = 15;

/** Whether a value is absent: missing, null, or text with nothing in it. */
export function absent(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Whether a shown value is masked (some of its characters stand for hidden digits). */
export function masked(value: unknown, kind: DetailKind = 'value'): boolean {
	if (typeof value !== 'string') return false;
	return (kind === 'requisite' ? MASK_CHARACTERS : MASK_ANY).test(value);
}

/**
 * A phone number as one line: digits only, the Russian trunk 8… and a bare ten-digit national
 * number as 7…. Works on a masked number too (a mask character stands for one digit).
 */
export function phoneLine(text: string): string {
	const line = text.replace(SEPARATORS, '').replace(new RegExp(MASK_CHARACTERS.source, 'g'), '*');
	if (line.length === 11 && line.startsWith('8')) return `7${line.slice(1)}`;
	if (line.length === 10) return `7${line}`;
	return line;
}

/** A card number's characters: digits, and `*` for each masked one. */
function cardLine(text: string): string {
	return text.replace(SEPARATORS, '').replace(new RegExp(MASK_CHARACTERS.source, 'g'), '*');
}

/**
 * Whether the digits a masked line shows differ from the full line asked. Where the mask keeps the
 * number's length, each shown digit is compared in its place; where it does not (`•••• 5678`),
 * the digits before the mask must begin the number and the digits after it must end it. Digits
 * that agree are `not_shown`, never `agrees`: the hidden ones may be another number's.
 */
function maskAgrees(askedLine: string, shownLine: string): Verdict {
	if (!/^[\d*]+$/.test(shownLine)) return 'not_shown';
	const shownDigits = shownLine.replace(/\*/g, '').length;
	if (shownDigits < MASK_MIN_DIGITS) return 'not_shown';
	if (shownLine.length === askedLine.length) {
		for (let i = 0; i < shownLine.length; i++) {
			if (shownLine[i] !== '*' && shownLine[i] !== askedLine[i]) return 'differs';
		}
		return 'not_shown';
	}
	const head = /^\d*/.exec(shownLine)?.[0] ?? '';
	const tail = /\d*$/.exec(shownLine)?.[0] ?? '';
	const fits = head.length + tail.length <= askedLine.length;
	return fits && askedLine.startsWith(head) && askedLine.endsWith(tail) ? 'not_shown' : 'differs';
}

/** A requisite (card or phone number) shown by the service against the one asked. */
function compareRequisite(asked: unknown, shown: string): Verdict {
	const askedDigits = String(asked).replace(/\D/g, '');
	const phone = askedDigits.length <= PHONE_MAX_DIGITS;
	const askedLine = phone ? phoneLine(askedDigits) : askedDigits;
	if (masked(shown, 'requisite'))
		return maskAgrees(askedLine, phone ? phoneLine(shown) : cardLine(shown));
	const shownLine = phone ? phoneLine(shown) : cardLine(shown);
	return shownLine === askedLine ? 'agrees' : 'differs';
}

const PLAIN_DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const SEPARATED_NUMBER = /^\+?[\d\s().-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One value as the service would understand it, so the same request written two ways compares
 * equal: text trimmed, "1500.50" and 1500.5 alike, a number written with spaces, dashes and
 * brackets as its digits, a UUID in lower case, empty values and their absence alike, object
 * keys in order.
 */
export function normaliseArgument(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string') {
		const text = value.trim().replace(/\s+/g, ' ');
		if (text === '') return undefined;
		if (PLAIN_DECIMAL.test(text)) {
			const [whole, fraction = ''] = text.replace(/^\+/, '').split('.');
			const kept = fraction.replace(/0+$/, '');
			return kept === '' ? whole : `${whole}.${kept}`;
		}
		if (SEPARATED_NUMBER.test(text) && text.replace(/\D/g, '').length >= 7) {
			return `${text.startsWith('+') ? '+' : ''}${text.replace(/\D/g, '')}`;
		}
		return UUID.test(text) ? text.toLowerCase() : text;
	}
	if (Array.isArray(value)) return value.map(normaliseArgument);
	if (typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value as object).sort()) {
			const normal = normaliseArgument((value as Record<string, unknown>)[key]);
			if (normal !== undefined) out[key] = normal;
		}
		return Object.keys(out).length === 0 ? undefined : out;
	}
	return String(value);
}

/** A name or bank as one spelling: letter case, inner spaces and dashes do not matter. */
function spelling(value: unknown): string {
	return String(value)
		.normalize('NFKC')
		.replace(/[\u2010-\u2015\u2212]/g, '-')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase();
}

/**
 * The verdict on one detail: what the service shows (`shown`) against what this call asks. The
 * one place the table above is decided.
 */
export function compareDetail(kind: DetailKind, asked: unknown, shown: unknown): Verdict {
	if (absent(shown)) return 'not_shown';
	if (kind === 'requisite') {
		const text = typeof shown === 'number' ? String(shown) : shown;
		return typeof text === 'string' ? compareRequisite(asked, text) : 'not_shown';
	}
	if (masked(shown)) return 'not_shown';
	if (kind === 'text') return spelling(asked) === spelling(shown) ? 'agrees' : 'differs';
	const same =
		JSON.stringify(normaliseArgument(asked)) === JSON.stringify(normaliseArgument(shown));
	return same ? 'agrees' : 'differs';
}

/*
 * Evidence of a payment: whether an answer (or a record found later) is the payment this call
 * asks for, detail by detail as the operation's money contract declares them, each by the table
 * above. Read by the router (an answer in normal mode) and by tool mode and Resolve Outcome (an
 * answer, and a record found by lookup).
 */

export interface Difference extends IDataObject {
	field: string;
	asked: string;
	paid: string;
}

/** What a record shows of the details this call asks. */
export interface Reading {
	/** Details it shows with another value (masked: a digit it shows is another). */
	differences: Difference[];
	/** Details this call asks that it does not show (absent, or masked past reading). */
	notShown: string[];
}

/**
 * The identity a write carries (an External ID) that the user set, against what a record shows
 * (outside r22-money F2): the same text, character for character, agrees; absent or masked is not
 * shown; anything else differs, white space and letter case too (`INV  42`, `INV\u00a042`,
 * ` INV 42`, `inv 42` are other External IDs than `INV 42`). The row `value` of the table, read
 * without its normalising: an External ID is the user's own name of the payment, as sent. A
 * tool's External ID is its canonical reference (key.ts canonicalReference), one spelling, and is
 * compared the same way (outside r24-money F1): ` inv-41 ` is not `inv-41`.
 */
export function compareIdentity(asked: unknown, shown: unknown): Verdict {
	if (absent(shown)) return 'not_shown';
	const text = typeof shown === 'number' ? String(shown) : shown;
	if (text === String(asked)) return 'agrees';
	return masked(text) ? 'not_shown' : 'differs';
}

/** Every declared detail this call asks, read against what `record` shows. */
export function readDetails(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	record: IDataObject,
): Reading {
	const reading: Reading = { differences: [], notShown: [] };
	// The External ID is compared as sent: the user's as given, a tool's as its canonical reference.
	const exactIdentity = contract.identity !== undefined;
	for (const detail of contract.details) {
		const asked = detail.asked(ctx, itemIndex, record);
		if (asked === undefined || asked === null) continue;
		const shown = detail.answered(record);
		const verdict =
			exactIdentity && detail.name === contract.identity?.field
				? compareIdentity(asked, shown)
				: compareDetail(detail.kind ?? 'value', asked, shown);
		if (verdict === 'not_shown') reading.notShown.push(detail.name);
		if (verdict !== 'differs') continue;
		const show = detail.show ?? ((value: unknown) => String(value));
		reading.differences.push({ field: detail.name, asked: show(asked), paid: show(shown) });
	}
	return reading;
}

/**
 * How an answer to this call's write differs from what this call asks, one entry per declared
 * detail it shows with another value; empty when they agree. A detail the answer does not show is
 * no difference here (the answer to this write, not evidence of a payment found later: that is
 * `readDetails`).
 */
export function differences(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	answer: IDataObject,
): Difference[] {
	return readDetails(ctx, contract, itemIndex, answer).differences;
}

/**
 * The error of a money write whose answer is another payment than the one asked for: the service
 * answered with details other than this item's (an earlier payment stored under the same key, or
 * this one written the service's own way). The write was sent, so the outcome is unknown: never
 * "nothing was paid", and never this payment.
 */
export function answerDiffers(
	ctx: IExecuteFunctions,
	contract: MoneyContract,
	itemIndex: number,
	diff: Difference[],
): NodeApiError {
	const what = diff.map((d) => `${d.field} ${d.paid} (this item asked ${d.asked})`).join(', ');
	return outcomeUnknownError(ctx.getNode(), contract, {
		reason: `the service answered with a payment whose details differ from this item's (${what}): it may be another payment the service stored earlier under the same Idempotency-Key, so this one may not have been made, or this one written the service's own way`,
		lines: [`Differences: ${what}`],
		itemIndex,
	});
}
