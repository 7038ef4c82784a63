// Small helpers shared by the benchmarks: summaries of repeated runs and number formatting.

/** Median, min and max of a list of numbers (the median of an even count is the mean of the middle two). */
export function summary(values) {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return { median: NaN, min: NaN, max: NaN, runs: 0, values };
	const mid = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length, values };
}

/** A number with about three significant digits, grouped thousands. */
export function num(value, digits = 3) {
	if (!Number.isFinite(value)) return 'n/a';
	const abs = Math.abs(value);
	if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
	const decimals = abs === 0 ? 0 : Math.max(0, digits - 1 - Math.floor(Math.log10(abs)));
	return value.toFixed(Math.min(decimals, 4));
}

/** "median (min–max)" with a unit. */
export function range(s, unit = '', digits = 3) {
	const u = unit ? ` ${unit}` : '';
	return `${num(s.median, digits)}${u} (${num(s.min, digits)}–${num(s.max, digits)})`;
}

/** A ratio as "1.23×" with its min–max. */
/** Two decimals, or three where two would round a miss or a pass onto a target's line. */
export function ratioText(s) {
	const digits =
		Math.abs(s.median * 100 - Math.round(s.median * 100)) > 0 &&
		[0.9, 1.1, 1.2, 1.5].includes(Number(s.median.toFixed(2)))
			? 3
			: 2;
	return `${s.median.toFixed(digits)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds since an earlier `performance.now()`. */
export function since(start) {
	return performance.now() - start;
}
