/*
 * Decimals compared on their written text, never through a double (outside read 2, finding 7):
 * `99.99999999999999999` is below 100 although `Number('99.99999999999999999')` is 100. A value
 * is read as sign, significant digits and the power of ten of its last digit, so `100.50`,
 * `100.5` and `1.005e2` are one value.
 */

/** A decimal written in JSON number form (optionally signed, with a fraction and an exponent). */
const DECIMAL = /^\s*([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

interface Decimal {
	negative: boolean;
	/** Significant digits, no leading or trailing zeros; '' for zero. */
	digits: string;
	/** The value is digits × 10^exponent. */
	exponent: number;
}

function read(text: string): Decimal | null {
	const match = DECIMAL.exec(text);
	if (!match) return null;
	const [, sign, whole, fraction = '', power = '0'] = match;
	let digits = (whole + fraction).replace(/^0+/, '');
	let exponent = Number(power) - fraction.length;
	if (!Number.isSafeInteger(exponent)) return null;
	const kept = digits.replace(/0+$/, '');
	exponent += digits.length - kept.length;
	digits = kept;
	return { negative: sign === '-' && digits !== '', digits, exponent };
}

/** The text of a value: a string as it is, a finite number by its shortest decimal. */
export function decimalText(value: unknown): string | null {
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
	if (typeof value === 'string' && read(value) !== null) return value.trim();
	return null;
}

/** Whether a text is a decimal this module reads. */
export function isDecimal(text: string): boolean {
	return read(text) !== null;
}

function compareMagnitude(a: Decimal, b: Decimal): number {
	if (a.digits === '' || b.digits === '') {
		return a.digits === b.digits ? 0 : a.digits === '' ? -1 : 1;
	}
	// The power of ten of the first digit decides, then the digits aligned on it.
	const topA = a.exponent + a.digits.length;
	const topB = b.exponent + b.digits.length;
	if (topA !== topB) return topA < topB ? -1 : 1;
	const length = Math.max(a.digits.length, b.digits.length);
	const left = a.digits.padEnd(length, '0');
	const right = b.digits.padEnd(length, '0');
	return left === right ? 0 : left < right ? -1 : 1;
}

/**
 * -1, 0 or 1 as the value written `a` is below, equal to or above the one written `b`; throws on
 * a text that is no decimal.
 */
export function compareDecimal(a: string, b: string): number {
	const x = read(a);
	const y = read(b);
	if (x === null || y === null) {
		throw new TypeError(`not a decimal: ${JSON.stringify(x === null ? a : b)}`);
	}
	if (x.negative !== y.negative) return x.negative ? -1 : 1;
	const magnitude = compareMagnitude(x, y);
	return x.negative ? -magnitude : magnitude;
}

/** Whether two texts write one value (`100.50` and `100.5`); false when either is no decimal. */
export function sameDecimal(a: string, b: string): boolean {
	const x = read(a);
	const y = read(b);
	return x !== null && y !== null && x.negative === y.negative && compareMagnitude(x, y) === 0;
}
