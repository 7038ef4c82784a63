import { createHmac, timingSafeEqual } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { derivedKey } from './binding';
import type { MoneyContract, MoneyDetail } from './contract';
import { compareDetail, compareIdentity, masked, phoneLine } from './evidence';
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
 * (from the start) and after the last (from the end). Digits that agree prove nothing of the
 * hidden ones (r4-money-resolve F6): `not_shown`, never `agrees`; a digit that is another differs.
 */
export function compareMaskedBoth(asked: string, shown: string): Verdict {
	let a = maskLine(asked);
	let b = maskLine(shown);
	if (!/^[\d*]+$/.test(a) || !/^[\d*]+$/.test(b)) return 'not_shown';
	if (a.length <= PHONE_MAX && b.length <= PHONE_MAX) {
		a = phoneLine(a);
		b = phoneLine(b);
	}
	if (a.length === b.length) {
		for (let i = 0; i < a.length; i++) {
			if (a[i] === '*' || b[i] === '*') continue;
			if (a[i] !== b[i]) return 'differs';
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
	}
	return 'not_shown';
}

/*
 * The keyed digest of a requisite (issue 49, the outside reader's finding 5): the item shows the
 * recipient's number masked (its last four digits), and another card ending in the same four
 * digits must not pass for it when the service shows the number in full. So the sent write also
 * carries, sealed with it, an HMAC of the whole number under a key derived from the credential's
 * API key (`digests.requisite`): it cannot be turned back into the number, and only the same
 * credential can compute it again from a number a record shows. A record that shows the number
 * in full is compared by it; one that shows it masked proves nothing of the recipient
 * (r4-money-resolve F6: only a digit shown otherwise differs).
 */

/** The version of the digest; a change of how a number is written before it is hashed is a new one. */
export const DIGEST_VERSION = 1;

/** A card or phone number as one line of digits, the way evidence.ts compares it. */
function requisiteLine(value: unknown): string {
	const digits = String(value).replace(/\D/g, '');
	return digits.length <= PHONE_MAX ? phoneLine(digits) : digits;
}

/** The keyed digest of a whole card or phone number, under a key derived from the API key. */
export function requisiteDigest(account: string, name: string, value: unknown): string {
	const mac = createHmac('sha256', derivedKey(account, `requisite-digest/v${DIGEST_VERSION}`))
		.update(`${name}:${requisiteLine(value)}`)
		.digest('base64url');
	return `d${DIGEST_VERSION}.${mac}`;
}

/**
 * The digests a sent write carries: one per requisite detail asked in full (write.ts seals them
 * with the rest), or undefined when it asks none.
 */
export function sentDigests(
	account: string,
	contract: MoneyContract,
	askedOf: (detail: MoneyDetail) => unknown,
): IDataObject | undefined {
	const digests: IDataObject = {};
	for (const detail of contract.details) {
		if (detail.kind !== 'requisite') continue;
		const asked = askedOf(detail);
		if (asked === undefined || asked === null || masked(asked, 'requisite')) continue;
		digests[detail.name] = requisiteDigest(account, detail.name, asked);
	}
	return Object.keys(digests).length > 0 ? digests : undefined;
}

/** What compares a number a record shows in full with the digest the sent write carries. */
export interface DigestCheck {
	account: string;
	digests: IDataObject;
}

function digestVerdict(check: DigestCheck, name: string, shown: unknown): Verdict | undefined {
	const digest = check.digests[name];
	if (typeof digest !== 'string') return undefined;
	const text = typeof shown === 'number' ? String(shown) : shown;
	if (typeof text !== 'string' || text.trim() === '' || masked(text, 'requisite')) return undefined;
	const expected = Buffer.from(requisiteDigest(check.account, name, text));
	const given = Buffer.from(digest);
	return expected.length === given.length && timingSafeEqual(expected, given)
		? 'agrees'
		: 'differs';
}

/**
 * One detail a sent write asked (`asked`, as the unknown item carries it) against what a found
 * record shows. An asked value that is masked is compared by what both show (a requisite), or
 * proves nothing (any other kind: its value is not known any more). A requisite the record shows
 * in full is compared by the sent write's digest of the whole number when it carries one.
 */
export function compareSentDetail(
	kind: DetailKind,
	asked: unknown,
	shown: unknown,
	digest?: { check: DigestCheck; name: string },
): Verdict {
	if (kind === 'requisite' && digest) {
		const verdict = digestVerdict(digest.check, digest.name, shown);
		if (verdict) return verdict;
	}
	if (kind === 'requisite' && masked(asked, 'requisite')) {
		if (shown === undefined || shown === null || shown === '') return 'not_shown';
		return compareMaskedBoth(String(asked), String(shown));
	}
	if (masked(asked)) return 'not_shown';
	return compareDetail(kind, asked, shown);
}

/**
 * Every detail a sent write asked, read against what `record` shows (readDetails' twin). With
 * `exactIdentity` (an External ID the user set: SentWrite.identityAs absent) the identity is
 * compared as sent, character for character (evidence.ts compareIdentity).
 */
export function readSentDetails(
	contract: MoneyContract,
	asked: IDataObject,
	record: IDataObject,
	check?: DigestCheck,
	exactIdentity = false,
): Reading {
	const reading: Reading = { differences: [], notShown: [] };
	for (const detail of contract.details) {
		const value = asked[detail.name];
		if (value === undefined || value === null) continue;
		const shown = detail.answered(record);
		const verdict =
			exactIdentity && detail.name === contract.identity?.field
				? compareIdentity(value, shown)
				: compareSentDetail(
						detail.kind ?? 'value',
						value,
						shown,
						check ? { check, name: detail.name } : undefined,
					);
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
