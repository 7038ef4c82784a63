// Notes printed under the table (and in RESULTS.md) for every target a run misses: why, and
// what would close it. The evidence behind them (CPU profiles of n8n, prototypes) is described
// in bench/README.md.
import { ratioText } from './lib/stats.mjs';

/** What the node does about paging cost, and what is left. */
const RETURN_ALL =
	'Paging takes 103 requests instead of one (pages of 100 overlap by 2 records, see ' +
	'docs/pagination.md). The node reads (and n8n decrypts) the credential once per run, not per ' +
	'page, and once the first page gives `total` it fetches the remaining pages 4 at a time ' +
	"(PAGE_CONCURRENCY in nodes/shared/pager.ts). What remains is n8n's request helper, once per " +
	'page: a new agent and TCP connection, and on n8n 2.41 its outbound-HTTP layer, `@n8n/backend-network` (the ' +
	"SSRF-checked lookup, the proxy routing); profiled on n8n 2.41.1 it is about 2.3 ms of n8n's " +
	"main thread per request against 0.3 ms of the node's own (parsing the page, the pager), see " +
	'bench/README.md. The node cannot make that helper cheaper without leaving it, and leaving it ' +
	"would drop n8n's proxy and SSRF rules for the API key's requests. What would close a miss: " +
	'larger pages, if the service allows them (its maximum `limit` is not documented; PAGE_SIZE in ' +
	'nodes/shared/contract/assumptions.ts); this figure keeps 100 per page by definition.';

export const NOTES = {
	verify: {
		bench: 'verify',
		title: 'Verify path at 64 KB',
		text:
			'At 64 KB the HMAC over the body dominates and the signature check alone costs about 1.0× a bare ' +
			'HMAC (diagnostic row), so a miss here points at a change in how the body is read or compared ' +
			'(a copy of the body, a re-serialisation, a non-constant-time compare): profile verify.mjs. ' +
			'The 1 KB row is a diagnostic: a fixed few µs per delivery (recording the delivery ID, the ' +
			'receivedAt timestamp) shows next to a 2 µs HMAC and vanishes inside n8n (figure 2).',
	},
	triggerStore: {
		bench: 'trigger',
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
				`dedup store's write into the static data on every new delivery (ours with and without ` +
				`delivery IDs, same run: ${ratioText(t.storeRatio)}): an SQLite ` +
				`UPDATE of the workflow row through n8n's single writer, the same ` +
				`with 250 or 1,000 IDs in the store (profile in bench/README.md). The anchors have no ` +
				`store, and the Chargebee Trigger checks no signature either. The write is what keeps ` +
				`deduplication across restarts and between webhook processes (a service retry comes ` +
				`1 s later and may reach another process), so the trigger keeps it; persisting less ` +
				`often would reopen that window. The webhook-phase sandbox on 2.41 is n8n's for every ` +
				`start node but its own Webhook node.`
			);
		},
	},
	action: {
		bench: 'action',
		title: 'Action node vs HTTP Request',
		text:
			'Our node runs read operations 10 items at a time (READ_CONCURRENCY in nodes/CompanyPayments/router.ts). ' +
			'The HTTP Request node, without Batching, starts every item at once.',
	},
	returnAllTime: {
		bench: 'returnAll',
		title: 'Return All, paged vs one page',
		text: (results) => {
			const r = results.returnAll;
			const inN8n =
				r.pagedMs.median - r.onePageMs.median - (r.directPagedMs.median - r.directOnePageMs.median);
			return `${RETURN_ALL} Measured here: the 102 extra requests cost n8n about ${(inN8n / 102).toFixed(1)} ms each beyond the sandbox's own share.`;
		},
	},
	returnAllMemory: {
		bench: 'returnAll',
		title: 'Return All memory',
		text:
			'Both runs hold the same 10,000 records as output items; paging keeps at most one extra page of ' +
			'100 records alive, so a miss here would point at a leak between pages.',
	},
	dependencies: {
		bench: 'package',
		title: 'Runtime dependencies',
		text: 'The package must declare no dependencies and require nothing but n8n-workflow (peer) and Node built-ins.',
	},
};
