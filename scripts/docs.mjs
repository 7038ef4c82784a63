#!/usr/bin/env node
/**
 * Writes the generated reference pages from the tables the node itself uses, so the docs cannot
 * drift from the code (test/docs/docs.test.mjs fails when a committed page differs from what
 * this produces):
 * - docs/errors.md from ERROR_EXPLANATIONS (what each errorCode means), ERROR_ACTIONS (what
 *   to do) and explainStatus (codes the package does not know), read from the build in dist/;
 * - the README's operations table and docs/operations.md's per-resource tables (between their
 *   `<!-- operations… -->` markers) from what each operation states in its file (`kind`, `docs`);
 * - every number a page states from a constant, inside `<!--n:NAME-->…<!--/n-->` markers, in
 *   every page a user reads (FACT_PAGES), from the constants themselves (scripts/facts.mjs).
 *
 * `node scripts/docs.mjs` writes; `node scripts/docs.mjs --check` only compares. Build first.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { PICTURES } from '../harness/pictures.mjs';
import { factTexts, fillFacts } from './facts.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const TRANSPORT = 'nodes/shared/transport';

/** The alt text of a picture of docs/images/ (harness/pictures.mjs says what each shows). */
const picture = (file) => PICTURES.find((candidate) => candidate.file === file).alt;

function loadBuilt(file, folder = TRANSPORT) {
	const full = path.join(ROOT, 'dist', folder, file);
	try {
		return require(full);
	} catch (error) {
		throw new Error(`cannot load ${full} (run npm run build first): ${error.message}`);
	}
}

/** The groups of errorCodes as the source table names them in its `// Group` comments. */
export function errorGroups() {
	const source = readFileSync(path.join(ROOT, TRANSPORT, 'errorCodes.ts'), 'utf8');
	const body = source.slice(source.indexOf('ERROR_EXPLANATIONS'));
	const groups = [];
	for (const line of body.split('\n')) {
		const heading = /^\t\/\/ (.+)$/.exec(line);
		if (heading) groups.push({ name: heading[1].trim(), codes: [] });
		const code = /^\t([A-Z][A-Z0-9_]*):/.exec(line);
		if (code && groups.length > 0) groups[groups.length - 1].codes.push(code[1]);
		if (line.startsWith('};')) break;
	}
	return groups;
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/errors.md's last section: what Resolve Outcome answers for an unknown item (issue 44.5). */
const RESOLVING = [
	'## Resolving an unknown outcome',
	'',
	'An item with `paymentOutcome: "unknown"` also carries `sentWrite`: the operation',
	'(`payout.create`), when it was sent (`sentAt`), the External ID it carried (`identity`, or',
	'null; `identityAs: "reference"` when it is a tool\'s canonical payment reference; either way it',
	"is found only exactly as sent), the details it asked (`details`; the recipient's number as outputs show it,",
	'`•••• 9012`), the fingerprint of the company and Base URL (`company`), the measured clock skew',
	"(`skewMs`: the upper bound its process measured: the least of them while the measures agree, one clock, so one slow answer does not raise it; the largest when they disagree, two clocks, so one dated behind does not place the write earlier; service minus n8n; both in the writer's clock; `clock` names the writer's n8n process) and the node's `seal`. **Payment → Resolve Outcome** takes that item (its **Unknown Item** field is",
	'`{{ $json }}` by default: the incoming item, from the error output or with *Continue On Fail*),',
	'finds the write again and answers in `paymentOutcome`. It only reads; it never sends a write.',
	'It refuses an item sent with another credential or Base URL (a key regenerated since is another',
	'credential), and an edited or made-up one (its seal does not hold): the refusal keeps',
	'`paymentOutcome: "unknown"`, the `sentWrite` and the refusal as `reason`, on the error (its',
	'context) and in the item *Continue On Fail* puts out, so a Switch on `paymentOutcome` keeps the',
	'payment in its `unknown` branch (no `lookAgainAt`: look it up by hand, or resolve it with the',
	'credential it was sent with). It counts only a record created after the write was sent (by the',
	'[binding rule](assumptions.md#resolving-an-unknown-outcome)). Every answer carries the',
	'`sentWrite` again, so Resolve → Wait → Resolve on `{{ $json }}` loops until it is decided.',
	'',
	'- `paid`, with the record in `record`: a record that is this write, by its identity and every',
	'  detail it asked, in a state that says the write was made;',
	'- `not_paid`: only where the record proves the write did not act;',
	'- `unknown`, with `reason`, `missing` (what the node would need), `lookAgainAt` (when a new',
	'  look may tell more, a few minutes on; null when it cannot) and `whatToDo`.',
	'',
	`![${picture('resolve-outcome.png')}](images/resolve-outcome.png)`,
	'',
	'| Operation | Looked up by | `paid` | `not_paid` | Stays `unknown` |',
	'|---|---|---|---|---|',
	"| Payout Create | the payouts carrying its External ID (`GET /payouts?externalId=`, assumed; a listing that leaves the External ID out is read record by record), each read in full (`GET /payouts/{id}`) | status `pending`, `waiting_trader`, `in_progress` or `success`, created after the write was sent (more than one such payout: every one in `matchingPayouts`, with a `warning` that money may have moved more than once); `fail` with `refundedAt` set: `paid` with `fundsReturned: true` (made, then its money came back; `whatToDo` names `payout.recharged`) | never: a failed payout's money is back only with `refundedAt`, and a refunded payout may return to `success` and be charged again (`payout.recharged`) | sent without an External ID; no payout carries it (the listing is not in the document and a new payout may not be listed yet, so absence proves nothing); only payouts created before the write was sent (another payment), dated later than the service's clock now, or dated without an offset (any zone, ±14 h); the writer's n8n process had measured no clock skew when it sent it (no `Date` header on the service's own fresh answers: a record's `createdAt` alone measures nothing, it may be a record the service held from earlier; a gateway's page or a cache's copy measures nothing; in another process, a queue-mode worker or after a restart, no later measure places the write); a payout made just after the write while a proxy whose clock is ahead of the service's sets the `Date` header (`dateClock` in assumptions.md); a payout that another write of the same request may have made (`sentWrite.alongside`, or a later write of this n8n process); a payout already given as proof of another write, or listed without its `id`; a detail shown otherwise or not shown at all (a masked recipient's number is not shown); status `fail` without `refundedAt`, or with one that is no time (`fundsReturned: null`) |",
	"| Payout Cancel | the payout it named (`GET /payouts/{id}`) | `fail` with failReason `cancelled_by_merchant`, its `refundedAt` (and `completedAt`, when shown) a readable time not before the cancel was sent | the payout left `waiting_trader` without the cancel acting (`in_progress`, `success` without a cancel's marks, `fail` for another reason): cancelling again is harmless | `waiting_trader` or `pending`, however long after the cancel (it may still act; `lookAgainAt` a few minutes on); `in_progress` or `success` with a cancel's marks (`cancelled_by_merchant` or a `refundedAt`: cancelled, then charged again); a status the document does not list; cancelled before the cancel was sent (an earlier cancel), or at no readable time |",
	"| Card Request | the cards carrying its External ID (`GET /cards?externalId=`), each read in full (`GET /cards/{id}`) | a card `requested` (queued, reserve held), `assigned`, `closing`, `closed` or `retired`, created after the write was sent (its `createdAt`) | never | sent without an External ID; no card carries it (a pending request keeps it on the request, which no documented list shows); a card created before the write, even one assigned after it (a card from stock given to this request and an earlier request's card given now look the same); a `failed` card (whether its reserve was released is not documented) |",
	"| Card Recharge, Accept Quote, Pay QR Code | nothing | | | always: the service keeps no identity of the node's on a recharge or an order, so no record can be proved to be this write; `whatToDo` says where to look (Company Wallet → Get Balance History; Accept Quote may be run again for the same quote: the document promises the stored answer for a repeated key) |",
	'',
	'A record proves a payment only by [the evidence rules](assumptions.md#evidence-of-a-payment): a',
	'detail it does not show, even read in full, is no evidence (`unknown`, named in `missing`); a',
	"masked number proves nothing of the recipient (the hidden digits may be another card's);",
	'a shown digit that differs makes it another payment (`unknown`, listed in `differences`). A',
	'record that shows the number in full is compared with the keyed digest of the whole number',
	'the `sentWrite` carries (`digests`); a time without an offset binds nothing. An item without',
	'a sealed `sentWrite` is `unknown`, said unverified (`verified: false`), whatever it claims: a',
	"`not_paid` or `paid` written by hand or by a model is never echoed back. Route this node's",
	'refusals (`not_paid`) by `paymentOutcome` before Resolve Outcome: only `unknown` items need',
	'it. If a look-up fails (Continue On Fail), the error item keeps `paymentOutcome: "unknown"` and',
	"the `sentWrite`, so the loop goes on. As an AI agent's tool, **Unknown Item** is filled by the",
	'model (`$fromAI`) with the whole answer of the money call. Set an External ID on every payout',
	'and card request: without one, neither can be found again.',
	'',
	'The example [`resolve-unknown-payout.json`](../examples/resolve-unknown-payout.json) runs',
	"Payout Create's error output through **Wait** and **Resolve Outcome** into a **Switch** on",
	'`paymentOutcome`, whose `unknown` branch goes back to the Wait until the answer is decided.',
	'',
];

export function errorsPage() {
	const { ERROR_EXPLANATIONS, explainStatus } = loadBuilt('errorCodes.js');
	const { ERROR_ACTIONS } = loadBuilt('errorActions.js');
	// The node's own money codes are worded in the money module (issue 49.4), not the transport.
	const { MONEY_ACTIONS, MONEY_EXPLANATIONS } = loadBuilt('words.js', 'nodes/shared/money');
	const lines = [
		'# Errors',
		'',
		'[← README](../README.md)',
		'',
		'<!-- Generated by scripts/docs.mjs from nodes/shared/transport/errorCodes.ts and',
		'errorActions.ts. Edit those tables, then run `npm run docs`. -->',
		'',
		"A failed call shows, in n8n's error panel:",
		'',
		"- the message: the service's `errorCode`, an English explanation of it and, for",
		'  `PERMISSION_DENIED`, the missing permission — e.g.',
		'  `PERMISSION_DENIED: The API key lacks a permission this operation needs (missing permission orders.create)`;',
		"- the description, one fact per line: the service's own `message` (Russian), `details`",
		'  (e.g. `{"minAmountRub":100}`), the required permission, the HTTP status, the `requestId`',
		'  (from the body or the `X-Request-Id` header) to quote to support, and what to do (the',
		'  last column below).',
		'',
		'An `errorCode` this package does not know yet is explained as a generic failure of its HTTP',
		'status (last table); a money write answered with one is `paymentOutcome` `unknown` (below).',
		'A body that is not JSON (a proxy error page) is reported with its first characters.',
		'',
		'With *On Error → Continue (using regular output)* a failed item comes out as',
		'`{ error, description, errorCode, httpCode, serviceMessage, details, required, requestId }`',
		'(`error` is the message). With *On Error → Continue (using error output)* it goes to the error',
		'output with the same fields inside `error` (`$json.error.errorCode`, `$json.error.message`, …).',
		'',
		'Input is checked before any request: such an error names the field, the rule and the value,',
		'and nothing was sent. API keys, webhook secrets, passwords, card numbers and CVV never appear',
		'in error messages, also where the service echoes them (upper-case, base64, percent-encoded,',
		'grouped). The error of a member, invite, company or card-data operation is closed like its',
		"record: in the service's `details` only the fields the record declares (a member's `userId`) and",
		'the ones the node reads (`required`, `field`) pass; a `memberKey` or a `pwd` there is masked.',
		"The editor's _From list_ pickers show their errors through the same gate.",
		'',
		'If a money-moving operation fails part-way through several items (without *Continue On',
		'Fail*), the error says which earlier items the service already processed, and what a',
		"*Retry* of the execution (n8n's Executions list) does to them: n8n runs a new execution, with",
		'a new execution ID, from the failed node with all its items, and does not tell the node it is',
		'a retry. A derived Idempotency-Key names the execution, so it changes and the items already',
		'paid may be paid again. An *Idempotency Key* set to a business reference of each item (its',
		'invoice number, `{{ $json.invoiceId }}`) is what keeps a re-run from paying twice; see',
		'[queue mode](queue-mode.md#a-retry-of-a-failed-execution).',
		'',
		'A failed money write (Accept Quote, Pay QR Code, Card Request, Card Recharge, Payout Create,',
		'Payout Cancel) also says whether money moved, in `paymentOutcome` beside the fields above:',
		'',
		'- `not_paid`: the service refused it with its own error body (a 4xx) whose `errorCode` the',
		'  interface document lists as a condition it checks before acting (a field, the key, a',
		'  permission, an object not found, the balance, a limit, a cooldown, working hours, a quote',
		'  expired …), or its 429 with a rate-limit code (`TOO_MANY_REQUESTS`, `RATE_LIMITED`), or',
		'  nothing was sent ("Could not reach": connection refused, host not found, TLS handshake',
		'  failed). An error body that may come after the service acted is `unknown` (below), whatever',
		'  it says: a 408, 423, 424 or 425, a 5xx, a code naming a backend failure (`BRIDGE_ERROR`,',
		'  `WALLET_BACKEND_ERROR`, `PAYOUT_SERVICE_UNAVAILABLE`, `INTERNAL_ERROR` …) at any status, and',
		'  any code the document does not list, whatever its name (`DEADLINE_EXCEEDED`,',
		'  `DOWNSTREAM_ERROR`, a new code): the document makes it a generic failure of its status, which',
		'  does not say the service had not acted. The whole table is',
		'  [`errorAfterActing`](assumptions.md#the-choices-by-name);',
		'- `unknown`, with errorCode `OUTCOME_UNKNOWN`: the request was sent and no readable answer of',
		"  the service came back (the connection closed, a timeout, a gateway's 502 or 504, an HTML",
		'  page, a 5xx), or the service refused a key or External ID that its own earlier attempt may',
		"  have used (a reused-key refusal, Card Request's own `CARD_EXTERNAL_ID_TAKEN`). The item",
		'  carries a sealed `sentWrite` for Resolve Outcome. The payment may have gone through. Look it up before trying again: Payout →',
		'  Get Many by External ID, Order → Get Many, Card → Get Many, Company Wallet → Get Balance',
		'  History (the error names the one for the call). The node does not re-send such a write on',
		'  its own. Only Accept Quote (and Pay QR Code, which accepts a quote) is documented to answer a',
		'  repeated Idempotency Key with the stored result; Card Request\'s key is required but "unique',
		'  per attempt", with no stored result promised. For Card Request, Card Recharge, Payout Create',
		"  and Payout Cancel n8n's Retry On Fail sends nothing again in the same n8n process: a paid item",
		'  gives back its first answer, an unknown one is reported unknown again, also where n8n gives no',
		'  execution ID. A new execution is not covered.',
		'- `unknown` too when the service answered 2xx with something that does not show the write was',
		'  carried out: an answer that is no record of it (no ID and none of the details asked, such as',
		'  `202 {"status":"accepted"}` or `{"ok":true}`), a record that names another payment\'s',
		"  details, a body or a record of it (Card Request's `request` or `card`) that says it failed",
		'  (`success` or `ok` false or `"false"`, an `errorCode`, an `error`, `errors` naming one as a',
		'  list or an object), a card that its request does not name (`request.cardId`) or that carries',
		'  another External ID than the one sent, a card request that `failed` or was `cancelled`, a',
		'  recharge or an order whose status',
		'  does not stand (`failed`, an order expired, disputed or in a status the document does not list). It carries its `sentWrite` as well.',
		'',
		"A successful item is the service's answer: the payment went through. A failed item of a money",
		'write without `paymentOutcome` failed before the payment was sent (an input check, or the',
		'quote step of Pay QR Code): nothing was paid.',
		'',
		`![${picture('money-error.png')}](images/money-error.png)`,
		'',
		'An `unknown` item can be looked up by the node itself, with **Payment → Resolve Outcome**: see',
		'[Resolving an unknown outcome](#resolving-an-unknown-outcome).',
		'',
		"Before any workflow runs, the credential's **Test** fails on every answer outside 2xx (a",
		"gateway's too) and says why by its status: a refused key (401, with the errorCodes it can",
		'mean), a missing permission (403), a wrong Base URL (404, a redirect, a web page); any other',
		"status by its number in the package's words, never by the answer's reason phrase (a gateway",
		'may write anything there, the key it was sent included). n8n 2.8.4',
		"does not hand the status to the credential's rules and shows its own text for it",
		'("Authorization failed - please check your credentials"); a Production credential the nodes',
		'refuse fails before the key is sent, with their message, on every version:',
		'',
		`![${picture('credential-test.png')}](images/credential-test.png)`,
		'',
	];
	for (const group of errorGroups()) {
		lines.push(
			`## ${group.name}`,
			'',
			'| errorCode | What it means | What to do |',
			'|---|---|---|',
		);
		for (const code of group.codes) {
			lines.push(
				`| \`${code}\` | ${cell(ERROR_EXPLANATIONS[code])} | ${cell(ERROR_ACTIONS[code] ?? '')} |`,
			);
		}
		lines.push('');
	}
	lines.push(
		"## This package's own",
		'',
		'| errorCode | What it means | What to do |',
		'|---|---|---|',
		...Object.keys(MONEY_EXPLANATIONS).map(
			(code) =>
				`| \`${code}\` | ${cell(MONEY_EXPLANATIONS[code])} | ${cell(MONEY_ACTIONS[code] ?? '')} |`,
		),
		'',
	);
	lines.push(
		'## Codes this package does not know',
		'',
		'The service may add codes. An unknown `errorCode` (or none) is explained by its HTTP status:',
		'',
		'| HTTP status | What it means |',
		'|---|---|',
	);
	for (const status of [400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503]) {
		lines.push(`| ${status} | ${cell(explainStatus(status))} |`);
	}
	lines.push('', ...RESOLVING);
	return lines.join('\n');
}

/** The built node's resources, each with its display name and its operations in selector order. */
function builtResources() {
	const { resources } = require(path.join(ROOT, 'dist/nodes/CompanyPayments/resources.js'));
	const { CompanyPayments } = require(
		path.join(ROOT, 'dist/nodes/CompanyPayments/CompanyPayments.node.js'),
	);
	const { properties } = new CompanyPayments().description;
	const names = properties.find((property) => property.name === 'resource').options;
	return names.map(({ name, value }) => {
		const resource = resources.find((candidate) => candidate.value === value);
		const selector = properties.find(
			(property) =>
				property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value),
		);
		const byValue = new Map(resource.operations.map((operation) => [operation.value, operation]));
		return {
			name,
			value,
			/** In the order of the resource's index (the docs tables' order). */
			operations: resource.operations,
			/** In the order of the operation selector (sorted by name). */
			selected: selector.options.map((option) => byValue.get(option.value)),
		};
	});
}

const NOTE = "<!-- generated by scripts/docs.mjs from each operation's file: do not edit here -->";

/** Replaces what stands between `<!-- name -->` and `<!-- /name -->` with `content`. */
export function replaceBlock(text, name, content) {
	const start = `<!-- ${name} -->`;
	const end = `<!-- /${name} -->`;
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from === -1 || to < from) throw new Error(`no block <!-- ${name} --> … <!-- /${name} -->`);
	return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** The README's operations table: every operation by resource, money moves in bold. */
export function readmeOperations(current) {
	const rows = builtResources().map(
		(resource) =>
			`| ${resource.name} | ${resource.selected
				.map((operation) => (operation.kind === 'money' ? `**${operation.name}**` : operation.name))
				.join(' · ')} |`,
	);
	return replaceBlock(
		current,
		'operations',
		[NOTE, '| Resource | Operations (**bold**: moves money) |', '|---|---|', ...rows].join('\n'),
	);
}

/** docs/operations.md: each resource's table, from each operation's `docs` row. */
export function operationsPage(current) {
	let text = current;
	for (const resource of builtResources()) {
		const rows = resource.operations.map(
			({ name, value, docs }) =>
				`| ${name} (\`${value}\`) | ${cell(docs.endpoint)} | ${cell(docs.permission ?? 'not named')} | ${cell(docs.notes ?? '')} |`,
		);
		text = replaceBlock(
			text,
			`operations:${resource.value}`,
			[NOTE, '| Operation | Endpoint | Permission | Notes |', '|---|---|---|---|', ...rows].join(
				'\n',
			),
		);
	}
	return text;
}

/** docs/assumptions.md's table of the open choices, by the name the sandbox plays each by. */
export function choicesTable(current) {
	const { OPEN_CHOICES } = require(path.join(ROOT, 'dist/nodes/shared/contract/choices.js'));
	const rows = Object.entries(OPEN_CHOICES).map(
		([name, choice]) => `| \`${name}\` | ${cell(choice.question)} | ${cell(choice.node)} |`,
	);
	return replaceBlock(
		current,
		'choices',
		[
			'<!-- generated by scripts/docs.mjs from nodes/shared/contract/choices.ts: do not edit here -->',
			'| Choice (the sandbox plays it by this name) | Left open | The node’s answer |',
			'|---|---|---|',
			...rows,
		].join('\n'),
	);
}

/** Each generated file and how to make it from its current text. */
export const GENERATED = {
	'docs/errors.md': () => errorsPage(),
	'README.md': readmeOperations,
	'docs/operations.md': operationsPage,
	'docs/assumptions.md': choicesTable,
};

/** The Markdown pages a user reads, whose numbers come from the code (scripts/facts.mjs). */
export function factPages() {
	const pages = ['README.md', 'CONTRIBUTING.md'];
	const under = (dir) =>
		readdirSync(path.join(ROOT, dir), { recursive: true })
			.map(String)
			.filter((name) => name.endsWith('.md'))
			.map((name) => path.posix.join(dir, name.split(path.sep).join('/')));
	return [...pages, ...under('docs'), ...under('examples')].sort();
}

/** Every page scripts/docs.mjs writes, and how to make it from its current text. */
export function generatedPages() {
	const texts = factTexts();
	const pages = {};
	for (const file of new Set([...Object.keys(GENERATED), ...factPages()])) {
		const make = GENERATED[file] ?? ((current) => current);
		pages[file] = (current) => fillFacts(make(current), texts);
	}
	return pages;
}

function main() {
	const check = process.argv.includes('--check');
	let stale = 0;
	for (const [file, make] of Object.entries(generatedPages())) {
		const full = path.join(ROOT, file);
		let current = null;
		try {
			current = readFileSync(full, 'utf8');
		} catch {}
		const wanted = make(current ?? '');
		if (current === wanted) continue;
		if (check) {
			console.error(`${file} is out of date: run npm run build && npm run docs`);
			stale++;
		} else {
			writeFileSync(full, wanted);
			console.log(`wrote ${file}`);
		}
	}
	process.exit(stale > 0 ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
