import { retryClock } from '../../../nodes/shared/transport/retry';
import { forgetLearnedSecrets } from '../../../nodes/shared/gate';
import { forgetAllSentWrites } from '../../../nodes/shared/money/write';

/**
 * Unit tests never really wait on rate limits: the retry loop's clock is virtual. A sleep moves
 * it forward at once and is recorded, so a test can read what the node waited.
 */
export const virtualClock = { now: Date.parse('2026-11-21T12:00:00.000Z'), slept: [] as number[] };

beforeEach(() => {
	// Each case runs as a new n8n process would: no money write sent before.
	forgetAllSentWrites();
	forgetLearnedSecrets();
	virtualClock.slept = [];
	retryClock.now = () => virtualClock.now;
	retryClock.random = () => 1;
	retryClock.sleep = async (ms: number) => {
		virtualClock.slept.push(ms);
		virtualClock.now += ms;
	};
});
