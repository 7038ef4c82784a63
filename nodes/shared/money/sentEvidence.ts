import type { IDataObject } from 'n8n-workflow';

import type { MoneyContract } from './contract';
import { MASK_MIN_DIGITS, compareDetail, masked, phoneLine } from './evidence';
import type { DetailKind, Reading, Verdict } from './evidence';

/*
 * The evidence rules (evidence.ts, the one table) read against what an unknown item's sent write
 * asked (issue 44.5): Resolve Outcome has no parameters of the write, only `sentWrite.details`,
 * which the output gate already masked (a recipient's number as "•••• 9012"). So the asked side
 * may be masked too: a detail is then compared by the digits both sides show, each in its place.
 * Everything else is compareDetail's verdict, unchanged.
 */

/** A card or phone number as one line: its digits, and `*` for each masked one. */
function maskLine(text: string): string {
	return text.replace(/[\s().+-]/g, '').replace(/[*•·xX#…●]/g, '*');
}

/** Phone numbers have at most 15 digits; a masked line is read as a phone when it is that short. */
const PHONE_MAX = 15;

/**
 * Two numbers where at least one is masked: the digits both show, compared in their places. When
 * the lines are as long as each other, place by place; else the digits before the first mask
 * (from the start) and after the last (from the end). Fewer than MASK_MIN_DIGITS digits compared
 * proves nothing.
 */
export function compareMaskedBoth(asked: string, shown: string): Verdict {
	let a = maskLine(asked);
	let b = maskLine(shown);
	if (!/^[\d*]+$/.test(a) || !/^[\d*]+$/.test(b)) return 'not_shown';
	if (a.length <= PHONE_MAX && b.length <= PHONE_MAX) {
		a = phoneLine(a);
		b = phoneLine(b);
	}
	let compared = 0;
	if (a.length === b.length) {
		for (let i = 0; i < a.length; i++) {
			if (a[i] === '*' || b[i] === '*') continue;
			if (a[i] !== b[i]) return 'differs';
			compared++;
		}
	} else {
		const head = (line: string) => /^\d*/.exec(line)?.[0] ?? '';
		const tail = (line: string) => /\d*$/.exec(line)?.[0] ?? '';
		const heads = Math.min(head(a).length, head(b).length);
		const tails = Math.min(tail(a).length, tail(b).length);
		if (head(a).slice(0, heads) !== head(b).slice(0, heads)) return 'differs';
		if (tail(a).slice(tail(a).length - tails) !== tail(b).slice(tail(b).length - tails)) {
			return 'differs';
		}
		compared = heads + tails;
	}
	return compared >= MASK_MIN_DIGITS ? 'agrees' : 'not_shown';
}

/**
 * One detail a sent write asked (`asked`, as the unknown item carries it) against what a found
 * record shows. An asked value that is masked is compared by what both show (a requisite), or
 * proves nothing (any other kind: its value is not known any more).
 */
export function compareSentDetail(kind: DetailKind, asked: unknown, shown: unknown): Verdict {
	if (kind === 'requisite' && masked(asked, 'requisite')) {
		if (shown === undefined || shown === null || shown === '') return 'not_shown';
		return compareMaskedBoth(String(asked), String(shown));
	}
	if (masked(asked)) return 'not_shown';
	return compareDetail(kind, asked, shown);
}

/** Every detail a sent write asked, read against what `record` shows (readDetails' twin). */
export function readSentDetails(
	contract: MoneyContract,
	asked: IDataObject,
	record: IDataObject,
): Reading {
	const reading: Reading = { differences: [], notShown: [] };
	for (const detail of contract.details) {
		const value = asked[detail.name];
		if (value === undefined || value === null) continue;
		const shown = detail.answered(record);
		const verdict = compareSentDetail(detail.kind ?? 'value', value, shown);
		if (verdict === 'not_shown') reading.notShown.push(detail.name);
		if (verdict !== 'differs') continue;
		const show = detail.show ?? ((v: unknown) => String(v));
		reading.differences.push({
			field: detail.name,
			asked: masked(value, 'requisite') ? String(value) : show(value),
			paid: show(shown),
		});
	}
	return reading;
}
