/** Items of an operation that may run at once run this many at a time (see `concurrent`). */
export const READ_CONCURRENCY = 10;

/**
 * Runs `run` for items 0 to count - 1 and returns each outcome at its item's index. Concurrent
 * operations run READ_CONCURRENCY items at once; every other operation runs one item after
 * another and stops after the first outcome `stop` says ends the run (a failure without Continue
 * On Fail), so nothing after a failed payment is sent behind the user's back. Outcomes after a
 * stop are left undefined.
 */
export async function runItems<T>(
	count: number,
	concurrent: boolean,
	run: (index: number) => Promise<T>,
	stop: (outcome: T) => boolean,
): Promise<Array<T | undefined>> {
	const outcomes = new Array<T | undefined>(count);
	if (!concurrent) {
		for (let index = 0; index < count; index++) {
			outcomes[index] = await run(index);
			if (stop(outcomes[index] as T)) break;
		}
		return outcomes;
	}
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			outcomes[index] = await run(index);
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(READ_CONCURRENCY, count) }, async () => await worker()),
	);
	return outcomes;
}
