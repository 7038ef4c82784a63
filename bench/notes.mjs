// Notes printed under the table (and in RESULTS.md) for every target a run misses: why, and
// what would close it. The evidence behind them (CPU profiles of n8n, prototypes) is described
// in bench/README.md.

/** Trigger below the Webhook node where storing is the only extra work (n8n 2.8.4). */
const STORE_WRITE =
	'The cost is persisting the dedup store, not verification: without a delivery ID nothing is ' +
	'stored and the trigger keeps up with the Webhook node (diagnostic row). n8n loads the ' +
	"workflow, including the node's static data, from the database on every webhook request, and " +
	'after a request that changed the static data it writes it back (JSON.stringify and an SQLite ' +
	'UPDATE). Every new delivery changes the store, so every new delivery costs one database write ' +
	'that the Webhook node does not make: that write is what makes deduplication survive a restart. ' +
	'The store used to hold one key per delivery ID (10,000 by default, about 550 KB, 0.14× the ' +
	'Webhook node); it is now a few lines of text (about 40 bytes per ID) and holds 1,000 IDs by ' +
	'default, which brought the default case to about 0.85–0.95× in runs on this machine, within ' +
	'the noise of the Webhook node itself (see its min–max). A store of 64 IDs measured 0.93× in the ' +
	'same conditions, so the remaining gap is the write itself, not its size. Raising Deduplication ' +
	'Store Size to 10,000 costs about half the rate (row above). ' +
	'What would close the rest: persisting less often than every delivery, which would open a ' +
	'window in which a retry after a restart is not recognised; the issue asks for restart-proof ' +
	'deduplication, so the trigger keeps the write.';

/** What the node does about paging cost, and what is left. */
const RETURN_ALL =
	'Paging adds 99 requests. The node already reads (and n8n decrypts) the credential once per ' +
	'run, not per page, and once the first page gives `total` it fetches the remaining pages 4 at ' +
	'a time (PAGE_CONCURRENCY in nodes/shared/pager.ts). What remains is ' +
	"n8n's request helper per page (a new connection each time) and the JSON of 100 pages, both CPU " +
	"time on a 2-core machine; the reference row shows the sandbox's own share. A list without a " +
	'total is read one page after another and costs more. What would close a miss: larger pages, ' +
	'if the service allows them (its maximum `limit` is not documented; PAGE_SIZE in ' +
	'nodes/shared/contract/assumptions.ts), or more pages at a time on more cores.';

export const NOTES = {
	verify: {
		title: 'Verify path at 64 KB',
		text:
			'At 64 KB the HMAC over the body dominates and the signature check alone costs about 1.0× a bare ' +
			'HMAC (diagnostic row), so a miss here points at a change in how the body is read or compared ' +
			'(a copy of the body, a re-serialisation, a non-constant-time compare): profile verify.mjs. ' +
			'The 1 KB row is a diagnostic: a fixed few µs per delivery (recording the delivery ID, the ' +
			'receivedAt timestamp) shows next to a 2 µs HMAC and vanishes inside n8n (figure 2).',
	},
	triggerStore: {
		title: 'Trigger throughput in n8n',
		text: (results) => {
			const t = results.trigger;
			const r = (name, anchor) => t.ratio[name][anchor].median.toFixed(2);
			const range = (name, anchor) =>
				`${t.ratio[name][anchor].min.toFixed(2)}–${t.ratio[name][anchor].max.toFixed(2)}`;
			return (
				`Ours (version 2) reaches ${r('small', 'webhookAuth')}× (${range('small', 'webhookAuth')}) ` +
				`the Webhook node with Header Auth and ${r('small', 'chargebee')}× ` +
				`(${range('small', 'chargebee')}) the Chargebee Trigger here; without delivery IDs ` +
				`(nothing stored) ${r('noId', 'webhookAuth')}× and ${r('noId', 'chargebee')}×. A median ` +
				`inside a min–max that straddles 1.0 is within this machine's noise. Per new delivery ` +
				`on n8n 2.41 (from n8n's sources; each sandbox about 10 ms of main-thread CPU): before ` +
				`issue 19 (version 1, credential read per delivery) n8n built a sandbox for the webhook ` +
				`phase, one for the credential read and one for the execution, and evaluated the ` +
				`binaryData expression; now (version 2, secret kept ≤ 10 s) the webhook phase and the ` +
				`execution, the same count as the Webhook node with Header Auth (its credential read ` +
				`and the execution), while the Chargebee Trigger (version 1) pays the webhook phase, ` +
				`the binaryData expression and the execution. What is left beyond the anchors is the ` +
				`dedup store's write into the static data on every new delivery, which the anchors do ` +
				`not have and the restart-proof deduplication needs; the webhook-phase sandbox is ` +
				`n8n's for every start node but its own Webhook node.`
			);
		},
	},
	action: {
		title: 'Action node vs HTTP Request',
		text:
			'Our node runs read operations 10 items at a time (READ_CONCURRENCY in nodes/CompanyPayments/router.ts). ' +
			'The HTTP Request node, without Batching, starts every item at once.',
	},
	returnAllTime: {
		title: 'Return All, paged vs one page',
		text: (results) => {
			const r = results.returnAll;
			const inN8n =
				r.pagedMs.median - r.onePageMs.median - (r.directPagedMs.median - r.directOnePageMs.median);
			return `${RETURN_ALL} Measured here: the 99 extra requests cost n8n about ${(inN8n / 99).toFixed(1)} ms each beyond the sandbox's own share.`;
		},
	},
	returnAllMemory: {
		title: 'Return All memory',
		text:
			'Both runs hold the same 10,000 records as output items; paging keeps at most one extra page of ' +
			'100 records alive, so a miss here would point at a leak between pages.',
	},
	dependencies: {
		title: 'Runtime dependencies',
		text: 'The package must declare no dependencies and require nothing but n8n-workflow (peer) and Node built-ins.',
	},
};
