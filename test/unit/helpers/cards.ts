import fc from 'fast-check';

/** The card checksum's (Luhn's) last digit for `body`. */
export function luhnDigit(body: string): string {
	let sum = 0;
	for (let index = 0; index < body.length; index++) {
		let digit = Number(body[body.length - 1 - index]);
		if (index % 2 === 0) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return String((10 - (sum % 10)) % 10);
}

/** `count` random digits. */
export const digitsOf = (count: number) =>
	fc
		.array(fc.integer({ min: 0, max: 9 }), { minLength: count, maxLength: count })
		.map((digits) => digits.join(''));

/** A number with `prefix`, `length` digits in all, completed by the card checksum. */
export function luhnNumber(prefix: fc.Arbitrary<string>, length: number): fc.Arbitrary<string> {
	return prefix.chain((start) =>
		digitsOf(length - start.length - 1).map((middle) => {
			const body = start + middle;
			return body + luhnDigit(body);
		}),
	);
}

/** An integer from `from` to `to`, as text (a scheme's leading digits). */
export const range = (from: number, to: number) => fc.integer({ min: from, max: to }).map(String);
