// A clock that tests can move forward, and a scheduler driven by it.
// Virtual time = real time + offset, so time passes normally and jumps on advance().

export function createClock() {
	let offsetMs = 0;
	return {
		now: () => Date.now() + offsetMs,
		iso: () => new Date(Date.now() + offsetMs).toISOString(),
		advance(ms) {
			offsetMs += ms;
			return offsetMs;
		},
		get offsetMs() {
			return offsetMs;
		},
		resetOffset() {
			offsetMs = 0;
		},
	};
}

/**
 * Runs callbacks once the virtual clock passes their due time. It polls on a short real
 * interval (unref'd, so it never keeps a process alive) and also runs right after advance().
 */
export function createScheduler(clock, { pollMs = 100 } = {}) {
	let tasks = [];
	let timer = null;
	const runDue = () => {
		const now = clock.now();
		const due = tasks.filter((t) => t.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt);
		if (!due.length) return;
		tasks = tasks.filter((t) => t.dueAt > now);
		for (const task of due) {
			try {
				task.fn();
			} catch (error) {
				// A scheduled transition that no longer applies (e.g. the order was moved by
				// control meanwhile) is simply skipped.
				if (!error?.statusCode) throw error;
			}
		}
	};
	return {
		at(dueAt, fn) {
			tasks.push({ dueAt, fn });
		},
		runDue,
		clear() {
			tasks = [];
		},
		start() {
			if (timer) return;
			timer = setInterval(runDue, pollMs);
			timer.unref();
		},
		stop() {
			if (timer) clearInterval(timer);
			timer = null;
			tasks = [];
		},
		get pending() {
			return tasks.length;
		},
	};
}
