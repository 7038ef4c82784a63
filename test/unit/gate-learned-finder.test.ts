// A value the run learned as a secret is found in a text in every form the gate writes for it,
// wherever the text puts it: also right after a stray `%` or `\u`, where an escape read with the
// value's first characters could hide it from a cheap test. The gate runs the full pattern of
// learned values only on texts that can hold one (learned.ts ValueFinder): this guards that the
// cheap test never turns a text that holds a value away.
import fc from 'fast-check';

import { gateText } from '../../nodes/shared/gate';
import { forgetLearnedSecrets, openRun, rememberSecret } from '../../nodes/shared/gate/learned';
import { luhnNumber } from './helpers/cards';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('');
const SPECIAL = [
	'/',
	'+',
	'=',
	'-',
	'_',
	'.',
	':',
	' ',
	'"',
	'\\',
	'\t',
	'\n',
	'п',
	'ё',
	'€',
	'&',
	'?',
	'#',
	'@',
];

/** A secret of letters, digits and now and then a character an encoder writes otherwise. */
const wordSecret = fc
	.array(
		fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ALNUM) }, fc.constantFrom(...SPECIAL)),
		{
			minLength: 8,
			maxLength: 30,
		},
	)
	.map((chars) => chars.join(''))
	.filter((value) => value.trim() === value && /[A-Za-z0-9]{3}/.test(value));

/** A card number of 13 to 19 digits. */
const numberSecret = fc
	.integer({ min: 13, max: 19 })
	.chain((length) => luhnNumber(fc.constantFrom('4', '51', '22', '62'), length));

const GAPS = [' ', '-', '.', '%20', '%2520', '\u2009', '%E2%80%89', '\u00a0'];

/** The forms a text may write a value in, each one the gate finds (formsOf, escapedForms, digits). */
function formsOf(value: string, gap: string): string[] {
	const encoded = encodeURIComponent(value);
	const forms = [
		value,
		encoded,
		encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		encoded.replace(/%20/g, '+'),
		JSON.stringify(value).slice(1, -1),
		JSON.stringify(JSON.stringify(value)).slice(1, -1),
		value.replace(
			/[^A-Za-z0-9]/g,
			(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
		),
		value.replace(/\//g, '\\/'),
	];
	if (value.length >= 16) forms.push(value.toUpperCase());
	if (/^\d+$/.test(value)) forms.push(value.replace(/(\d{4})(?=\d)/g, `$1${gap}`));
	return forms;
}

/** What may stand just before the value: among them the start of an escape. */
const BEFORE = ['', ' ', '%', '\\u', '\\', 'a %', '100% ', '"key":"', 'x=', '+'];
const AFTER = ['', ' end', '%', '"', '\\', ' 42'];

describe('a learned secret is found in every form, whatever stands before it', () => {
	for (const audience of ['user', 'model'] as const) {
		it(`for the ${audience === 'user' ? 'user' : 'AI model'}`, () => {
			fc.assert(
				fc.property(
					fc.oneof(wordSecret, numberSecret),
					fc.constantFrom(...GAPS),
					fc.constantFrom(...BEFORE),
					fc.constantFrom(...AFTER),
					fc.nat(),
					(value, gap, before, after, pick) => {
						forgetLearnedSecrets();
						const ctx = {};
						openRun(ctx);
						rememberSecret(ctx, value);
						// Only a value the gate takes for a secret (not a date or an amount).
						fc.pre(gateText(ctx, `x ${value} y`, audience) !== `x ${value} y`);
						const forms = formsOf(value, gap);
						const form = forms[pick % forms.length];
						const text = `${before}${form}${after}`;
						return !gateText(ctx, text, audience).includes(form);
					},
				),
				{ numRuns: 600 },
			);
		});
	}

	it('a number after an escape it could be read with (`\\u6714%202625…`, `%671%2520…`)', () => {
		forgetLearnedSecrets();
		const ctx = {};
		openRun(ctx);
		rememberSecret(ctx, '6714262558912818');
		for (const text of [
			'\\u6714%202625%205891%202818',
			'a %671%2520426%2520255%2520891%2520281%25208',
		]) {
			expect(gateText(ctx, text, 'model')).not.toMatch(/6714|2625|426|5891/);
		}
	});

	it('a value with a space, as a form writes it (`+`), in a text with no escape', () => {
		forgetLearnedSecrets();
		const ctx = {};
		openRun(ctx);
		rememberSecret(ctx, 'Qw7 zX9 pL2 mN4');
		expect(gateText(ctx, 'sent Qw7+zX9+pL2+mN4 here', 'model')).not.toContain('zX9+pL2');
	});

	it('a text that holds no learned value is left as it was', () => {
		forgetLearnedSecrets();
		const ctx = {};
		openRun(ctx);
		rememberSecret(ctx, 'k3yAbCdEfGh1234');
		const text = 'Payout 1790123400012345600 of 1500.50 RUB, 100% done, path a\\b';
		expect(gateText(ctx, text)).toBe(text);
	});
});
