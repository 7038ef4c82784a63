// Notes printed under the table (and in RESULTS.md) for every target a run misses: why, and
// what would close it. The evidence behind them (CPU profiles of n8n, prototypes) is described
// in bench/README.md.
import { pagedRequests } from './lib/n8n.mjs';
import { ratioText } from './lib/stats.mjs';
import { pageSize } from './returnAll.mjs';

/** What the node does about paging cost, and what is left. */
const RETURN_ALL =
	'The node asks for pages of 1,000 (PAGE_SIZE in nodes/shared/contract/assumptions.ts; a ' +
	'service that serves fewer has its cap learnt, one that refuses the size is asked again at ' +
	'the size it names, see docs/pagination.md), so 10,000 records take 11 requests (pages ' +
	'overlap by 2 records) instead of one. The node reads (and n8n decrypts) the credential once ' +
	'per run, not per page, and once the first page gives `total` it fetches the remaining pages ' +
	"4 at a time (PAGE_CONCURRENCY in nodes/shared/pager.ts). What remains is n8n's request " +
	'helper, once per page: a new agent and TCP connection, and on n8n 2.41 its outbound-HTTP ' +
	"layer, `@n8n/backend-network` (the SSRF-checked lookup, the proxy routing), about 2.3 ms of n8n's " +
	"main thread per request on 2.41.1 against 0.3 ms of the node's own (bench/README.md); and " +
	'the sandbox, which filters and copies all 10,000 records for every page (reference row).';

/** Whether the run's n8n evaluates expressions in an isolated-vm sandbox (n8n 2.36 and later). */
function sandboxed(results) {
	const [major, minor] = String(results.runtime?.n8n ?? '0.0')
		.split('.')
		.map(Number);
	return major > 2 || (major === 2 && minor >= 36);
}

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
	triggerDiy: {
		bench: 'trigger',
		title: 'Trigger with delivery IDs vs the DIY chain',
		text: (results) => {
			const t = results.trigger;
			const r = (name, anchor) =>
				`${t.ratio[name][anchor].median.toFixed(2)}× (${t.ratio[name][anchor].min.toFixed(2)}–${t.ratio[name][anchor].max.toFixed(2)})`;
			return (
				`Ours with delivery IDs reaches ${r('small', 'diy')} the DIY chain here, without IDs ` +
				`${r('noId', 'diy')}; ours over ours without IDs (the dedup store's write, same runs): ` +
				`${ratioText(t.storeRatio)}. A median inside a min–max that straddles 1.0 is within ` +
				`this machine's noise. ` +
				(sandboxed(results)
					? ''
					: 'This n8n has no expression sandbox: ours runs one node where the chain runs ' +
						"four, so a miss here is the machine's noise or the dedup store's write (below). ") +
				`On n8n 2.41 the gap is n8n's, and no node can close it: ` +
				'every request to a start node whose type is not n8n-nodes-base.webhook makes ' +
				'LiveWebhooks.executeWebhook acquire an expression sandbox before the node runs ' +
				'(webhookPhaseNeedsIsolate in n8n/dist/webhooks/live-webhooks.js returns true at ' +
				'`startNode.type !== WEBHOOK_NODE_TYPE`, before it looks at parameters, webhook ' +
				'description fields or the response mode). With the default pool of one ' +
				"(@n8n/expression-runtime's IsolatePool) each acquisition builds a new isolate " +
				'(IsolatedVmBridge.initialize: new Isolate, createContext, the runtime bundle) and ' +
				'disposes the old one; the execution acquires another (WorkflowExecute.initializeExecution ' +
				'in n8n-core), for every workflow. The DIY chain starts with the Webhook node, so it ' +
				'pays one per request, ours two; its Crypto, IF and Remove Duplicates cost less than ' +
				'that second isolate. The profile (bench/README.md) gives the milliseconds. On 2.8.4 ' +
				'there is no sandbox and ours is ahead. What is left beyond that on every version is the ' +
				"dedup store's write into the static data (an SQLite UPDATE of the workflow row), which " +
				'keeps deduplication across restarts and webhook processes; Remove Duplicates pays its ' +
				'own database write for the same guarantee.'
			);
		},
	},
	triggerNoId: {
		bench: 'trigger',
		title: 'Trigger without delivery IDs vs the Webhook node with Header Auth',
		text: (results) => {
			const t = results.trigger.ratio.noId.webhookAuth;
			const reached =
				`Ours without delivery IDs reaches ${t.median.toFixed(2)}× (${t.min.toFixed(2)}–` +
				`${t.max.toFixed(2)}) the Webhook node with Header Auth. A median inside a min–max ` +
				'that straddles 1.0 is within noise.';
			if (!sandboxed(results)) {
				return (
					`${reached} This n8n has no expression sandbox: both run one node and n8n's same ` +
					'webhook and execution work, ours verifies the HMAC over the raw body (0.3 ms of ' +
					'the profile) where the Webhook node compares a header, and the rates of both ' +
					'moved by 2× between runs on the shared machine (min–max).'
				);
			}
			return (
				`${reached} On n8n 2.41 both pay two ` +
				'expression sandboxes per request: ours the webhook phase (n8n gives it to every ' +
				'start node but its Webhook node, see above) and the execution, the Webhook node with ' +
				'Header Auth its credential read (credentials-helper.js applyDefaultsAndOverwrites) ' +
				'and the execution; our credential read happens at most once per 10 s (the secret ' +
				'is kept in memory).'
			);
		},
	},
	triggerAnswer: {
		bench: 'trigger',
		title: 'Answer time vs the DIY chain',
		text: (results) => {
			const a = results.trigger.answers;
			return (
				`Ours answers a new delivery in ${a.answer.small.median.toFixed(1)} ms against the DIY ` +
				`chain's ${a.answer.diy.median.toFixed(1)} ms (per round ${ratioText(a.smallOverDiy)}). ` +
				"The DIY chain's Webhook node answers before anything is verified (Respond: " +
				'Immediately), so a forged or repeated delivery also gets 200; ours answers after the ' +
				'signature check and the dedup record, and 401 to a bad signature. On n8n 2.41 our ' +
				'answer also waits for the webhook-phase sandbox n8n acquires before any start node ' +
				'but its Webhook node runs (see above); the Webhook node skips it.'
			);
		},
	},
	triggerLost: {
		bench: 'trigger',
		title: 'Deliveries lost after a 200',
		text:
			'Ours answers 200 only after the delivery is verified and recorded, and hands the item to ' +
			'n8n in the same request; an execution of ours that did not succeed after that answer is a ' +
			'lost event (the service does not send it again). Look at the failed executions of the ' +
			'run (n8n keeps their error) before anything else.',
	},
	triggerV1: {
		bench: 'trigger',
		title: 'Version 1 vs version 2 under the lazy sandbox',
		text: (results) => {
			const t = results.triggerLazy;
			return (
				`Version 1 reaches ${ratioText(t.v1Ratio)} of version 2 here. n8n evaluates ` +
				'`$parameter["options"]["binaryData"]` as an expression for every typeVersion-1 start ' +
				'node before the node runs (parseRequestBody in n8n/dist/webhooks/webhook-helpers.js, ' +
				'`nodeVersion === 1`), and that expression builds a sandbox under the lazy setting too. ' +
				"The test is on the saved node's typeVersion and the expression is a literal in n8n, " +
				'so no node description can avoid it; saved workflows get there by moving the trigger ' +
				'to version 2 (the editor shows a notice on version-1 nodes), or with the upstream ' +
				'change of docs/upstream-isolate.md, which reads that option natively for static ' +
				'parameters (its row above).'
			);
		},
	},
	triggerWebhook: {
		bench: 'trigger',
		title: "Version 2 vs n8n's bare Webhook node under the lazy sandbox",
		text: (results) => {
			const t = results.triggerLazy;
			return (
				`Ours with delivery IDs reaches ${ratioText(t.ratio.small.webhook)} the bare Webhook node, ` +
				`without delivery IDs ${ratioText(t.ratio.noId.webhook)}. With the lazy sandbox neither ` +
				'builds an isolate per request; what ours does beyond the bare node is its work: the ' +
				"HMAC over the raw body, and with delivery IDs the dedup store's write into the static " +
				'data (an SQLite UPDATE per new delivery) that keeps deduplication across restarts. ' +
				"A median inside a min–max that straddles 1.0 is within this machine's noise."
			);
		},
	},
	triggerWebhookAnswer: {
		bench: 'trigger',
		title: "Answer time vs n8n's bare Webhook node under the lazy sandbox",
		text: (results) => {
			const a = results.triggerLazy.answers;
			return (
				`Ours answers a new delivery in ${a.answer.small.median.toFixed(1)} ms against the bare ` +
				`Webhook node's ${a.answer.webhook.median.toFixed(1)} ms (per round ` +
				`${ratioText(a.smallOverWebhook)}). The Webhook node answers on receipt, before ` +
				'anything is checked; ours answers after the signature check and the dedup record, and ' +
				'its answer includes the static-data write n8n does before it answers (see ' +
				'docs/webhook-trigger.md).'
			);
		},
	},
	triggerDiyLazy: {
		bench: 'trigger',
		title: 'Version 2 vs the DIY chain under the lazy sandbox',
		text: (results) =>
			`Ours with delivery IDs reaches ${ratioText(results.triggerLazy.ratio.small.diy)} the DIY ` +
			"chain with the lazy sandbox. The chain's IF and Remove Duplicates hold expressions, so " +
			'its execution still builds an isolate there; ours builds none. A miss points at the ' +
			"machine's noise (min–max) or at a change in what ours does per delivery.",
	},
	triggerPatchedDiy: {
		bench: 'trigger',
		title: 'Version 2 vs the DIY chain with the upstream change',
		text: (results) =>
			`Ours with delivery IDs reaches ${ratioText(results.triggerPatched.ratio.small.diy)} the ` +
			"DIY chain on n8n's default (eager) engine with the change of docs/upstream-isolate.md. " +
			"With it ours pays one isolate per request (the execution's), like the chain; a miss " +
			"points at the dedup store's write, which Remove Duplicates pays too, or at the " +
			"machine's noise (min–max).",
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
			const extra = pagedRequests(r.records, pageSize()) - 1;
			const each =
				inN8n > 0
					? `cost n8n about ${(inN8n / extra).toFixed(1)} ms each beyond the sandbox's own share`
					: "cost nothing measurable beyond the sandbox's own share (the paged and one-page medians differ by less than the sandbox's own difference, within this machine's noise)";
			return `${RETURN_ALL} Measured here: the ${extra} extra requests ${each}.`;
		},
	},
	returnAllMemory: {
		bench: 'returnAll',
		title: 'Return All memory',
		text:
			'Both runs hold the same 10,000 records as output items; paging keeps at most the pages in ' +
			'flight (4 of 1,000 records) alive besides them, so a miss here would point at a leak between pages.',
	},
	dependencies: {
		bench: 'package',
		title: 'Runtime dependencies',
		text: 'The package must declare no dependencies and require nothing but n8n-workflow (peer) and Node built-ins.',
	},
};
