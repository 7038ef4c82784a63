// Notes printed under the table (and in RESULTS.md) for every target a run misses: why, and
// what would close it. The evidence behind them (CPU profiles of n8n, prototypes) is described
// in bench/README.md.

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
		text:
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
			'deduplication, so the trigger keeps the write.',
	},
	action: {
		title: 'Action node vs HTTP Request',
		text:
			'Our node runs read operations 10 items at a time (READ_CONCURRENCY in nodes/CompanyPayments/router.ts). ' +
			'The HTTP Request node, without Batching, starts every item at once.',
	},
	returnAllTime: {
		title: 'Return All, paged vs one page',
		text:
			'Paging adds 99 sequential round trips. The reference row shows that the sandbox itself serves ' +
			'the 100 pages in only slightly more time than the one page, so nearly all of the difference is ' +
			'in n8n: roughly 1.5–2.5 ms per extra request on this machine. A CPU profile shows why: for every ' +
			'request, httpRequestWithAuthentication loads the credential from the database and decrypts it, ' +
			'and axios opens a new TCP connection. The one-page run takes about 200 ms, so 1.2× leaves about ' +
			"40 ms for 99 requests, about 0.4 ms each, which is less than n8n's request helper costs per " +
			'request here. ' +
			'What would close it: ' +
			'(1) Larger pages, if the service allows them. Its maximum `limit` is not documented; the node ' +
			'assumes 100 (PAGE_SIZE in nodes/CompanyPayments/assumptions.ts). ' +
			'(2) Fetching pages 2…N concurrently once the first page gives `total`. A prototype with 4 ' +
			'concurrent page requests measured 1.78× against 2.17× sequential, in one back-to-back comparison ' +
			'here. That helps but does not close the gap on 2 cores, because the per-request work is CPU time ' +
			'in n8n.',
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
