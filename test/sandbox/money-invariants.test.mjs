// Money truth over many generated services (issue 49.5), in one process: the built node (dist/)
// runs in a small stand-in for n8n's execute context against one sandbox, which plays a new seed
// for each round, with its money silences on (lib/generatedMoney.mjs: reused keys replayed or
// refused, listings that lag and leave out externalId or amounts, a skewed clock with its Date
// header or none at all, record times with an offset, without one in UTC or in the service's local
// time, earlier payouts under the same External ID 30 days or 20 s old, money answers lost before
// or after the service acted). Each seed plays three cases and checks them against the sandbox's
// own ledger:
//
// - no item (or Resolve Outcome answer) is paid unless its money moved;
// - no item or reference pays twice;
// - no item (or answer) is not_paid when its money moved;
// - Resolve Outcome agrees with the ledger.
//
// MONEY_SEEDS (default 200) sets how many seeds; MONEY_BREAK=time|fingerprint|company|future|
// unmeasured|resent|quote|zoneless|gateway|assigned|idless|cache|largest|cache+largest|
// resentAny|fresh|accepted|standing|oneRecord|heldTime|answered4xx breaks the money rules on purpose in the built code (the time bound; the company fingerprint check alone; the whole credential
// binding, fingerprint and seal; a record dated later than the service's clock now read as made
// after the write; an unmeasured clock skew assumed to be zero; Payout Create's refusals its own
// earlier payout causes, read as refusals; Pay QR Code's re-send preparing a new quote instead of
// re-sending the first; a record time without an offset read as UTC; a gateway's page measuring
// the clock skew; a payout bound by its assignedAt; a record without its id claimed; r5-money:
// cache, a caching proxy's stale Date measuring the skew; largest, the least measured skew
// binding instead of the largest; cache+largest, both; resentAny, a balance refusal or a taken
// External ID after an earlier attempt read as a refusal; r7-money-a: fresh, Payout Create's
// refusals matched by their words again instead of the rule turned round; accepted, a 2xx that
// is no record read as a success; r9-money: standing, a recharge or an order answered in a status
// that does not stand read as a success; r14-money: oneRecord, a record another write of the
// process already proves answered as a success again; heldTime, a record made before the write
// was sent answered as made by it; r20-money: answered4xx, every 4xx with the service's error body
// read as a refusal before acting, whatever its code or status)
// and reports the seeds that fail instead of failing:
// `MONEY_BREAK=time node --test test/sandbox/money-invariants.test.mjs`. r19-money: ties, an
// answer's card not tied to its request read as this write's; failedBody, a 2xx body with
// success:false (or ok:false, errors, error, failReason) read as a success. Issue 49 (mfix24):
// unlisted, a 4xx with a code the document does not list read as a refusal again (the answered.ts
// rule undone); resendUnlisted, Payout Create sent again by Retry On Fail after an unknown (as if
// the document promised replay by key for it). Each seed also checks the drawn `unlistedCode`
// answers (lib/generatedMoney.mjs: 418, or 400/409/410/422/451 with a code the document does not
// list, after the service acted or before): the write is unknown, and never sent again under its
// key in the same process (an accept only as the same request: the same quote).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { KEYS, openSandbox } from './helpers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(ROOT, 'dist', file));
const { CompanyPayments } = dist('nodes/CompanyPayments/CompanyPayments.node.js');
const money = dist('nodes/shared/money/write.js');
/** The sandbox's request counter at each n8n process's start (forgetAllSentWrites: a new process). */
const processStarts = [];
let seqNow = () => 0;
function forgetAllSentWrites() {
	money.forgetAllSentWrites();
	processStarts.push(seqNow());
}
// The node's waits on a rate limit (Retry-After, back-off) pass at once on a virtual clock, as in
// the unit tests: the seeds check what the node decides, not how long it waits (real waits were
// a third of this file's time). The sandbox's clock and the Date headers are not moved by them.
const { retryClock } = dist('nodes/shared/transport/retry.js');
let slept = 0;
retryClock.now = () => Date.now() + slept;
retryClock.sleep = async (ms) => {
	slept += Math.max(0, ms);
};

const SEEDS = Number(process.env.MONEY_SEEDS ?? 200);
const BREAK = process.env.MONEY_BREAK ?? '';

// Breaking the rule on purpose, in the built code the node runs (CommonJS reads each export when
// it calls it).
if (BREAK === 'time') dist('nodes/shared/money/binding.js').createdSince = () => 'after';
if (BREAK === 'fingerprint') {
	const binding = dist('nodes/shared/money/binding.js');
	const real = binding.companyFingerprint;
	binding.companyFingerprint = (account, baseUrl) =>
		new Error().stack.includes('bindingProblem') ? 'cf1-any' : real(account, baseUrl);
	// The item's own fingerprint is compared with 'cf1-any': make the check pass whatever it says.
	const resolve = dist('nodes/shared/money/resolve.js');
	const realProblem = resolve.bindingProblem;
	resolve.bindingProblem = async (ctx, i, raw, sent) =>
		realProblem(ctx, i, raw, { ...sent, company: 'cf1-any' });
}
if (BREAK === 'future') {
	const binding = dist('nodes/shared/money/binding.js');
	const real = binding.createdSince;
	binding.createdSince = (...args) => (real(...args) === 'future' ? 'after' : real(...args));
}
if (BREAK === 'unmeasured') {
	const clock = dist('nodes/shared/money/clock.js');
	const real = clock.knownSkew;
	clock.knownSkew = (...args) => real(...args) ?? 0;
}
// The refusals an item's own earlier payout causes read as refusals again (r1-money-resend F7).
if (BREAK === 'resent')
	dist('nodes/CompanyPayments/payout/create.operation.js').create.money.resentRefusals = [];
// r19-money: the ties of an answer's records not checked; a 2xx body that says it failed let pass.
if (BREAK === 'ties') dist('nodes/shared/money/binding.js').brokenTies = () => [];
if (BREAK === 'failedBody')
	dist('nodes/shared/money/outcome.js').answerSaysFailed = () => undefined;
// Pay QR Code's re-send forgets the quote its first send accepted (r4-money-resend F2).
if (BREAK === 'quote') dist('nodes/shared/money/write.js').firstSend = async () => undefined;
// r4-money-resolve: the guards of its findings 1 to 4, each undone.
if (BREAK === 'zoneless') {
	const binding = dist('nodes/shared/money/binding.js');
	const real = binding.createdSince;
	const asUtc = (record) => {
		const out = { ...record };
		for (const key of ['createdAt', 'assignedAt']) {
			if (typeof out[key] === 'string' && binding.boundTime(out[key]) === 'no_offset') {
				out[key] = new Date(binding.serviceTime(out[key])).toISOString();
			}
		}
		return out;
	};
	binding.createdSince = (record, ...rest) => real(asUtc(record), ...rest);
}
if (BREAK === 'gateway') {
	const clock = dist('nodes/shared/money/clock.js');
	const real = clock.observeReport;
	// Every answer with a status measures, a gateway's page too.
	clock.observeReport = (baseUrl, report, ...rest) =>
		real(
			baseUrl,
			{
				...report,
				attempts: report.attempts.map((a) =>
					'status' in a ? { ...a, status: 200, readable: true } : a,
				),
			},
			...rest,
		);
}
if (BREAK === 'assigned') {
	const binding = dist('nodes/shared/money/binding.js');
	const real = binding.createdSince;
	binding.createdSince = (record, time, now, local) => real(record, time, now, local, true);
}
if (BREAK === 'idless') dist('nodes/shared/money/proofs.js').claimable = () => true;
// r5-money: the guards of its findings 1 and 2, each undone.
// A cached copy's Date measures the skew again (its Age and cache headers dropped before reading).
if (BREAK === 'cache' || BREAK === 'cache+largest') {
	const clock = dist('nodes/shared/money/clock.js');
	const { apiRequest, runAccount } = dist('nodes/shared/transport/index.js');
	clock.readMeasured = async (ctx, itemIndex, path) => {
		const report = { attempts: [] };
		const answer = await apiRequest.call(ctx, { method: 'GET', path, itemIndex, report });
		const { baseUrl } = await runAccount(ctx, itemIndex);
		const last = report.attempts.at(-1);
		for (const name of Object.keys(last?.headers ?? {})) {
			if (/^(age|warning|cache-control)$/i.test(name)) delete last.headers[name];
		}
		clock.observeReport(baseUrl, report);
		return answer;
	};
}
// The least skew measured binds instead of the largest (with 'cache': a stale Date binds).
if (BREAK === 'largest' || BREAK === 'cache+largest') {
	const clock = dist('nodes/shared/money/clock.js');
	const real = clock.skewRangeSince;
	clock.skewRangeSince = (...args) => {
		const range = real(...args);
		return range && { low: range.low, high: range.low };
	};
	// r15-money F2: Resolve Outcome binds by the measures' agreement while they meet; that too.
	clock.skewAgreement = (baseUrl) => {
		const range = real(baseUrl, 0);
		return range && { high: range.low, twoClocks: false };
	};
}
// Refusals any re-send's own earlier attempt causes (a balance, a taken External ID) read as refusals.
if (BREAK === 'resentAny') {
	const resent = dist('nodes/shared/money/resent.js');
	resent.RESENT_BY_ANY = [];
	resent.refusesTaken = () => false;
}
if (BREAK === 'company')
	dist('nodes/shared/money/resolve.js').bindingProblem = async () => undefined;
// r7-money-a: Payout Create's refusal rule back to word-matching (F1), and a 2xx that is no record
// read as a success again (F8).
if (BREAK === 'fresh')
	delete dist('nodes/CompanyPayments/payout/create.operation.js').create.money.freshRefusals;
if (BREAK === 'accepted') dist('nodes/shared/money/outcome.js').notARecord = () => undefined;
if (BREAK === 'standing') dist('nodes/shared/money/outcome.js').notStanding = () => undefined;
// r14-money: a record another write of the process already proves read as this one's success
// again (F2), and one made before the write was sent read as made by it (F3).
if (BREAK === 'oneRecord') dist('nodes/shared/money/proofs.js').provedOther = () => undefined;
if (BREAK === 'heldTime') dist('nodes/shared/money/binding.js').earliestCreated = () => -Infinity;
// r20-money: every 4xx with the service's error body read as a refusal before acting again,
// whatever its code or status (the answered.ts table undone).
if (BREAK === 'answered4xx') dist('nodes/shared/money/answered.js').answerClass = () => 'refused';
// mfix24: a 4xx with a code the document does not list read as a refusal before acting again
// (only the unlisted codes: every listed one keeps its reading).
if (BREAK === 'unlisted') {
	const answered = dist('nodes/shared/money/answered.js');
	const real = answered.answerClass;
	const listed = new Set([
		...answered.REFUSAL_CODES,
		...answered.ACTED_MAYBE_CODES,
		...answered.STATUS_MEANING_CODES,
		...answered.RATE_LIMIT_CODES,
	]);
	answered.answerClass = (status, code) =>
		status >= 400 && status < 500 && typeof code === 'string' && !listed.has(code)
			? 'refused'
			: real(status, code);
}
// mfix24: Payout Create sent again by Retry On Fail after an unknown answer.
if (BREAK === 'resendUnlisted')
	dist('nodes/CompanyPayments/payout/create.operation.js').create.money.replayByKey = true;

const CARD = '2200123456789012';
const AMOUNT = 1500;

/** fetch as n8n's request helper answers this package (full response, no redirects followed). */
async function httpRequest(options) {
	const url = new URL(options.url);
	for (const [k, v] of Object.entries(options.qs ?? {})) {
		if (v !== undefined) url.searchParams.append(k, String(v));
	}
	const headers = { ...options.headers };
	let body;
	if (options.body !== undefined && Object.keys(options.body).length > 0) {
		body = JSON.stringify(options.body);
		headers['Content-Type'] = 'application/json';
	}
	let res;
	try {
		res = await fetch(url, { method: options.method ?? 'GET', headers, body, redirect: 'manual' });
	} catch (error) {
		// As axios (n8n's helper) names a connection closed after the request was sent.
		const reset = new Error('socket hang up');
		reset.code = 'ECONNRESET';
		reset.cause = error;
		throw reset;
	}
	const text = await res.text();
	return {
		body: text,
		headers: Object.fromEntries(res.headers),
		statusCode: res.status,
		statusMessage: res.statusText,
	};
}

/** One run of the node: its parameters, credential, execution and whether it runs as a tool. */
async function runNodeOnce(
	sandbox,
	{ parameters, apiKey = KEYS.owner, tool = false, executionId = '1', items = 1 },
) {
	const credentials = {
		environment: 'staging',
		baseUrl: sandbox.url,
		apiKey,
		webhookSecret: '',
	};
	const node = {
		id: 'node-1',
		name: 'Company Payments',
		type: `n8n-nodes-company-payments.companyPayments${tool ? 'Tool' : ''}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: tool ? parameters : {},
		onError: tool ? undefined : 'continueRegularOutput',
	};
	const authed = (options) => ({
		...options,
		headers: { ...options.headers, 'X-API-Key': apiKey },
	});
	const context = {
		getInputData: () => Array.from({ length: items }, () => ({ json: {} })),
		getNode: () => node,
		getExecutionId: () => executionId,
		getInstanceId: () => 'instance-1',
		getWorkflow: () => ({ id: 'wf-1', name: 'Money', active: false }),
		continueOnFail: () => !tool,
		getCredentials: async () => credentials,
		getWorkflowDataProxy: () => ({ $runIndex: 0, $execution: { id: executionId } }),
		addExecutionHints: () => {},
		getNodeParameter: (name, _i, fallback) => {
			const value = parameters[name];
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		helpers: {
			httpRequest: (options) => httpRequest(options),
			httpRequestWithAuthentication: (_type, options) => httpRequest(authed(options)),
		},
	};
	const result = await new CompanyPayments().execute.call(context);
	// Several items (a workflow run only): every item's output, in order.
	if (items > 1) return result[0].map((entry) => entry.json);
	const json = result[0][0].json;
	// A tool's failure is { error: { … } }; a workflow item's fields are at the top.
	return tool && json.error && typeof json.error === 'object' ? { ...json, ...json.error } : json;
}

/** The money writes the sandbox can answer with a drawn code (lib/generatedMoney.mjs MONEY_ROUTES). */
const MONEY_WRITE_ROUTES = new Set([
	'POST /payouts',
	'POST /payouts/:id/cancel',
	'POST /cards/request',
	'POST /cards/recharge',
	'POST /orders/accept/:id',
]);

/**
 * The unlistedCode invariant of one node run (mfix24): each money write the sandbox answered with
 * a drawn 4xx whose code the document does not list comes out unknown. The run's money writes are
 * its items' in order (one write per item: the node sends none again), so the k-th write is the
 * k-th output. `onProblem(what)` and `onSeen(what)` report.
 */
function checkUnlisted(sandbox, since, outputs, { onProblem, onSeen }) {
	const writes = sandbox.generated
		.log(since)
		.requests.filter((q) => MONEY_WRITE_ROUTES.has(q.route));
	if (writes.length !== outputs.length) {
		if (writes.some((q) => q.unlistedCode)) onSeen('unlistedCode not mapped to an item');
		return;
	}
	for (const [k, q] of writes.entries()) {
		if (!q.unlistedCode) continue;
		const outcome = outcomeOf(outputs[k]);
		onSeen(`unlistedCode ${q.route} ${q.unlistedCode}: ${outcome}`);
		if (outcome !== 'unknown') {
			onProblem(`${q.route} answered ${q.unlistedCode} (unlisted code) came out ${outcome}`);
		}
	}
}

/** The outcome an output says: paid (a record), not_paid or unknown. */
function outcomeOf(json) {
	if (json.paymentOutcome) return json.paymentOutcome;
	if (json.refused) return 'not_paid';
	return json.id ? 'paid' : 'unknown';
}

// CI (.ci/run) runs this file in its Redis fault lane, which mostly waits, and sets
// COMPANY_PAYMENTS_INVARIANTS_IN_LANE=1 for npm test so the file does not run twice.
const IN_LANE = process.env.COMPANY_PAYMENTS_INVARIANTS_IN_LANE === '1';
describe(
	`money invariants over ${SEEDS} generated seeds (in process)`,
	{ skip: IN_LANE && 'CI runs this file in its fault lane' },
	() => {
		let sandbox;
		const failures = [];
		/** What the seeds played, so a run that exercises nothing is seen (printed at the end). */
		const seen = {};
		const count = (what) => {
			seen[what] = (seen[what] ?? 0) + 1;
		};

		before(async () => {
			sandbox = await openSandbox({ generated: 1 });
		});
		after(async () => {
			await sandbox?.close();
			console.log(`played: ${JSON.stringify(seen)}`);
			if (BREAK) {
				console.log(
					`MONEY_BREAK=${BREAK}: ${new Set(failures.map((f) => f.seed)).size} of ${SEEDS} seeds failed`,
				);
				// The unlistedCode checks alone (mfix24): came out otherwise, or sent again.
				const unlisted = failures.filter((f) =>
					/\(unlisted code\)|answered \d{3} \S+ was sent again/.test(f.problem),
				);
				console.log(
					`MONEY_BREAK=${BREAK}: ${new Set(unlisted.map((f) => f.seed)).size} of ${SEEDS} seeds failed an unlistedCode check`,
				);
			}
		});

		/** Payouts of a company that carry an External ID and were made by the node (money moved). */
		const moved = (companyId, externalId) =>
			[...sandbox.state.payouts.values()].filter(
				(p) =>
					p.companyId === companyId &&
					p.externalId === externalId &&
					!sandbox.generated.money.isPlanted(p.id),
			).length;

		async function playSeed(seed) {
			await sandbox.setGenerated(seed);
			seqNow = () => sandbox.generated.seq;
			processStarts.length = 0;
			const gen = sandbox.generated;
			gen.paused.faults = true;
			gen.paused.churn = true;
			gen.money.play(true);
			sandbox.reset();
			const company = sandbox.state.companies.get(sandbox.company.id);
			const problems = [];
			const check = (ok, what) => {
				if (!ok) problems.push(what);
			};
			const advance = () => sandbox.clock.advance(gen.choices.money.listingLag + 1000);
			/** A node run, its money writes answered with an unlisted code checked (mfix24). */
			const runNode = async (sb, options) => {
				const since = gen.seq;
				const out = await runNodeOnce(sb, options);
				checkUnlisted(sb, since, Array.isArray(out) ? out : [out], {
					onProblem: (what) => problems.push(what),
					onSeen: count,
				});
				return out;
			};

			/** What Resolve Outcome answers, looking again while it says unknown (twice at most). */
			async function resolveLoop(item, apiKey = KEYS.owner) {
				const answers = [];
				let current = item;
				for (let look = 0; look < 2; look++) {
					const answer = await runNode(sandbox, {
						parameters: { resource: 'payment', operation: 'resolveOutcome', unknownItem: current },
						apiKey,
					});
					// A refusal (Continue On Fail puts it out as an item): said as such.
					if (answer.paymentOutcome === undefined && typeof answer.error === 'string') {
						throw new Error(answer.error);
					}
					answers.push(answer);
					if (answer.paymentOutcome !== 'unknown') break;
					advance();
					current = answer;
				}
				return answers;
			}

			// Case A: a workflow's Payout Create under an External ID that earlier payouts carry too;
			// each unknown is resolved (Resolve → Wait → Resolve); Retry On Fail in the same process;
			// a new run only when Resolve Outcome says not_paid.
			const extA = `inv-${seed}-a`;
			gen.money.plantEarlier(company, { externalId: extA, amountRub: AMOUNT, requisite: CARD });
			const create = (ext, key) => ({
				resource: 'payout',
				operation: 'create',
				amountRub: String(AMOUNT),
				requisiteType: 'card',
				requisite: CARD,
				idempotencyKey: key,
				additionalFields: { externalId: ext },
			});
			for (let attempt = 0; attempt < 3; attempt++) {
				forgetAllSentWrites();
				const before = moved(company.id, extA);
				const out = await runNode(sandbox, { parameters: create(extA, `key-${seed}-a`) });
				const acted = moved(company.id, extA) > before;
				const outcome = outcomeOf(out);
				count(`A create ${outcome}${acted ? ' (moved)' : ''}`);
				// A 2xx that is no payout record (acceptedAnswer) is never a success item (r7-money-a F8).
				check(
					out.paymentOutcome !== undefined || out.id !== undefined || out.error !== undefined,
					`A${attempt}: a success item that is no record`,
				);
				if (out.paymentOutcome === undefined && out.id === undefined && out.error === undefined)
					break;
				check(outcome !== 'paid' || acted, `A${attempt}: paid, no money moved`);
				check(outcome !== 'not_paid' || !acted, `A${attempt}: not_paid, money moved`);
				if (outcome !== 'unknown') break;
				// Retry On Fail in the same process sends nothing again.
				const retry = await runNode(sandbox, { parameters: create(extA, `key-${seed}-a`) });
				check(
					outcomeOf(retry) !== 'not_paid' || !acted,
					`A${attempt}: retry not_paid, money moved`,
				);
				const answers = await resolveLoop(out);
				const actedNow = moved(company.id, extA) > before;
				for (const answer of answers) {
					const reason = String(answer.reason);
					// A proxy ahead of the records' clock (dateClock > 0) is never corrected (a records'
					// measure only raises the Date's skew, r8-money F1): the write's own payout looks
					// made before it and stays unknown, the window docs/assumptions.md names.
					const proxyAhead =
						actedNow &&
						gen.choices.money.dateClock > 0 &&
						/created before this write was sent/.test(reason);
					const why = proxyAhead
						? ' (proxy ahead: the named window)'
						: /Date header/.test(reason)
							? ' (no Date header)'
							: /later than the service's clock now/.test(reason)
								? ' (dated in the future)'
								: /without its offset/.test(reason)
									? ' (no offset)'
									: /without its id/.test(reason)
										? ' (no id)'
										: '';
					count(`A resolve ${answer.paymentOutcome}${actedNow ? ' (moved)' : ''}${why}`);
					check(
						answer.paymentOutcome !== 'paid' || actedNow,
						`A${attempt}: Resolve paid, no money moved`,
					);
					check(
						answer.paymentOutcome !== 'not_paid' || !actedNow,
						`A${attempt}: Resolve not_paid, money moved`,
					);
					// A gateway's replayed POST made two payouts for one write (replayedPost): a paid
					// answer names every one (r7-money-a F3).
					const madeNow = moved(company.id, extA) - before;
					if (answer.paymentOutcome === 'paid' && madeNow > 1) {
						count('A resolve paid naming every replayed payout');
						check(
							(answer.matchingPayouts?.length ?? 0) >= madeNow,
							`A${attempt}: Resolve paid naming one of ${madeNow} payouts`,
						);
					}
				}
				if (answers.at(-1).paymentOutcome !== 'not_paid') break;
			}
			// The payouts a gateway's replay made are the service's doing, not the node's (counted).
			const replayedA = gen.money.replays;
			if (replayedA > 0) count('A replayed POST');
			check(moved(company.id, extA) <= 1 + replayedA, `A: paid ${moved(company.id, extA)} times`);

			// Case D (r1-money-resend F7): a payout whose answer may be lost, run again from a new process
			// with its Idempotency Key and External ID (the user re-runs the execution), while the
			// service may refuse a requisite it paid out to a moment ago (requisiteCooldown): a refusal
			// its own first payout causes is never not_paid.
			const extD = `inv-${seed}-d`;
			const cardD = `22001234${String(seed).padStart(8, '0')}`;
			const createD = { ...create(extD, `key-${seed}-d`), requisite: cardD };
			const movedD = () =>
				[...sandbox.state.payouts.values()].filter(
					(p) => p.companyId === company.id && p.requisite === cardD,
				).length;
			for (let run = 0; run < 2; run++) {
				forgetAllSentWrites();
				const out = await runNode(sandbox, { parameters: createD });
				const acted = movedD() > 0;
				const outcome = outcomeOf(out);
				count(
					`D run ${run} ${outcome}${acted ? ' (moved)' : ''}${out.errorCode === 'OUTCOME_UNKNOWN' && /COOLDOWN/.test(JSON.stringify(out)) ? ' cooldown' : ''}`,
				);
				check(outcome !== 'paid' || acted, `D${run}: paid, no money moved`);
				check(outcome !== 'not_paid' || !acted, `D${run}: not_paid, money moved`);
				// A refusal ends it; paid or unknown, the user re-runs it once more.
				if (outcome === 'not_paid') break;
			}
			// A service that ignores the key of a write it does not promise to replay, and keeps no
			// cooldown, pays the re-run again: the window README and docs/queue-mode.md name (look the
			// payment up first). Counted, not a failure; every other service pays once.
			const window = gen.choices.lostAnswer?.keysIgnored && !gen.choices.money.requisiteCooldown;
			if (movedD() > 1 && window) count('D paid twice in the named re-run window');
			else check(movedD() <= 1 + gen.money.replays - replayedA, `D: paid ${movedD()} times`);

			// Case E (r4-money-resend): Pay QR Code under an Idempotency Key the user set, Retry On Fail in
			// one process with resendTries tries, the accept's answer lost after the service acted on
			// every try but the last, and its repeat answered as drawn (resendRefusal: the stored
			// order, a 429, or INSUFFICIENT_BALANCE): one order at most, and never not_paid once one
			// was made, on any try.
			const ordersOf = () =>
				[...sandbox.state.orders.values()].filter((o) => o.companyId === company.id).length;
			const payE = {
				resource: 'order',
				operation: 'pay',
				qrCode: `https://qr.nspk.ru/AS${seed}?sum=150000`,
				idempotencyKey: `pay-${seed}-e`,
			};
			const tries = gen.choices.money.resendTries;
			forgetAllSentWrites();
			const ordersBefore = ordersOf();
			gen.money.loseNext('POST /orders/accept/:id', tries - 1);
			const outsE = [];
			for (let attempt = 0; attempt < tries; attempt++) {
				outsE.push(await runNode(sandbox, { parameters: payE }));
				if (outcomeOf(outsE.at(-1)) !== 'unknown') break;
			}
			gen.money.loseNext('POST /orders/accept/:id', 0);
			const madeE = ordersOf() - ordersBefore;
			count(
				`E ${gen.choices.money.resendRefusal} x${tries}: ${outsE.map(outcomeOf).join('/')} made ${madeE}`,
			);
			check(madeE <= 1, `E: one key paid ${madeE} times by Retry On Fail`);
			for (const [i, out] of outsE.entries()) {
				check(outcomeOf(out) !== 'not_paid' || madeE === 0, `E${i}: not_paid, money moved`);
				check(outcomeOf(out) !== 'paid' || madeE >= 1, `E${i}: paid, no money moved`);
			}

			// Case F (r5-money F1): a payout lost before the service acted, under an External ID one
			// earlier payout carries (made earlierNear before it), resolved while the payout's read may
			// come through a cache (cachedDate: its Date as old as the copy): never paid.
			const extF = `inv-${seed}-f`;
			forgetAllSentWrites();
			gen.money.plantNear(company, { externalId: extF, amountRub: AMOUNT, requisite: CARD });
			gen.money.loseNext('POST /payouts', 1, false);
			const outF = await runNode(sandbox, { parameters: create(extF, `key-${seed}-f`) });
			gen.money.loseNext('POST /payouts', 0);
			count(`F create ${outcomeOf(outF)}`);
			check(
				moved(company.id, extF) === 0,
				'F: the write lost before the service acted moved money',
			);
			if (outcomeOf(outF) === 'unknown') {
				advance();
				for (const answer of await resolveLoop(outF)) {
					count(
						`F resolve ${answer.paymentOutcome} (cache ${gen.choices.money.cachedDate / 1000} s, earlier ${gen.choices.money.earlierNear / 1000} s)`,
					);
					// A Date header from a proxy behind the records' clock (dateClock < 0) before this
					// process measured the records' clock: the window docs/assumptions.md names
					// ("A Date header from another clock"). Counted, not a failure; every other service
					// holds.
					const proxyWindow =
						gen.choices.money.dateClock < 0 &&
						gen.choices.money.earlierNear <= -gen.choices.money.dateClock + 5_000;
					if (answer.paymentOutcome === 'paid' && proxyWindow) {
						count('F paid in the named proxy-clock window');
						continue;
					}
					check(
						answer.paymentOutcome !== 'paid',
						'F: Resolve paid by an earlier payout, no money moved',
					);
				}
			} else {
				check(outcomeOf(outF) !== 'paid', 'F: paid, no money moved');
			}

			// Case B: an item of this company whose write never reached the service, resolved with
			// another company's credential that holds a matching payout made just after it.
			const extB = `inv-${seed}-b`;
			gen.money.play(false);
			sandbox.state.faults.rejectRequests = 1;
			sandbox.state.faults.status = 503;
			sandbox.state.faults.pathPrefix = '/payouts';
			forgetAllSentWrites();
			const lost = await runNode(sandbox, { parameters: create(extB, `key-${seed}-b`) });
			sandbox.state.faults.rejectRequests = 0;
			sandbox.state.faults.pathPrefix = null;
			gen.money.play(true);
			count(`B create ${outcomeOf(lost)}`);
			if (outcomeOf(lost) === 'unknown') {
				const other = [...sandbox.state.companies.values()].find((c) => c.id !== company.id);
				// The other company's payout, with this item's details, made just after it was sent.
				const now = new Date(sandbox.clock.now() + 2000).toISOString();
				sandbox.state.payouts.set(`po_other_${seed}`, {
					id: `po_other_${seed}`,
					companyId: other.id,
					externalId: extB,
					status: 'success',
					amountRub: AMOUNT,
					chargedUsdt: 15.38,
					rate: 97.5,
					requisiteType: 'card',
					requisite: CARD,
					bankId: null,
					bank: null,
					recipientFirstName: null,
					recipientLastName: null,
					failReason: null,
					comment: null,
					refundedAt: null,
					dispute: null,
					takenAt: now,
					completedAt: now,
					createdAt: now,
					updatedAt: now,
				});
				advance();
				let answers = [];
				try {
					answers = await resolveLoop(lost, KEYS.otherCompany);
					count('B resolved');
				} catch (error) {
					count('B refused');
					check(
						/bound to this credential/.test(error.message),
						`B: refused otherwise: ${error.message}`,
					);
				}
				for (const answer of answers) {
					check(answer.paymentOutcome !== 'paid', "B: paid from another company's payout");
				}
				check(moved(company.id, extB) === 0, 'B: the refused write moved money');
			}

			// Case C: a tool's Payout Create under one reference, called again at once in the same
			// process, then from another process once the listing has caught up.
			const reference = `T-${seed}`;
			const extC = reference.toLowerCase();
			const toolCall = {
				resource: 'payout',
				operation: 'create',
				amountRub: String(AMOUNT),
				requisiteType: 'card',
				requisite: CARD,
				agentMayMoveMoney: true,
				paymentReference: reference,
			};
			forgetAllSentWrites();
			const replaysBeforeC = gen.money.replays;
			const calls = [];
			calls.push(await runNode(sandbox, { parameters: toolCall, tool: true }));
			calls.push(await runNode(sandbox, { parameters: toolCall, tool: true }));
			advance();
			forgetAllSentWrites();
			calls.push(await runNode(sandbox, { parameters: toolCall, tool: true, executionId: '2' }));
			const total = moved(company.id, extC);
			// Payouts a gateway's replayed POST made (replayedPost) are the service's doing (counted).
			const replayedC = gen.money.replays - replaysBeforeC;
			count(
				`C ${calls.map(outcomeOf).join('/')} moved ${total}${replayedC ? ' (replayed POST)' : ''}`,
			);
			check(total <= 1 + replayedC, `C: reference paid ${total} times`);
			for (const [i, call] of calls.entries()) {
				check(outcomeOf(call) !== 'paid' || total >= 1, `C${i}: paid, no money moved`);
			}
			// Case G (r9-money F1, F10): Card Recharge on an assigned card and Pay QR Code, answered as
			// drawn (writeAnswer: the record, the record failed, 202 accepted with no record, or the
			// record in a status not listed or not known: unlisted): a
			// success item only for a record that stands, never not_paid once the money moved.
			const cardG = [...sandbox.state.cards.values()].find(
				(c) => c.companyId === company.id && c.status === 'assigned',
			);
			const drawn = gen.choices.money.writeAnswer;
			if (cardG) {
				forgetAllSentWrites();
				const rechargesBefore = sandbox.state.recharges.size;
				const outG = await runNode(sandbox, {
					parameters: {
						resource: 'card',
						operation: 'recharge',
						cardId: { __rl: true, mode: 'id', value: cardG.id },
						targetAmount: '10',
					},
				});
				const actedG = sandbox.state.recharges.size > rechargesBefore;
				// answerShape (outside r19-money): a 2xx success:false, or a quote's shape, is no success.
				const shapeG = gen.choices.money.answerShape;
				const shapedG = shapeG === 'successFalse' || shapeG === 'quoteShape';
				count(
					`G recharge ${drawn}${shapedG ? ` ${shapeG}` : ''}: ${outcomeOf(outG)}${actedG ? ' (moved)' : ''}`,
				);
				const successG = outG.error === undefined && outG.paymentOutcome === undefined;
				check(
					!successG || (actedG && drawn === 'record' && !shapedG),
					`G: recharge answered ${drawn}${shapedG ? ` ${shapeG}` : ''} a success`,
				);
				check(outcomeOf(outG) !== 'not_paid' || !actedG, 'G: recharge not_paid, money moved');
			} else count('G no assigned card');
			forgetAllSentWrites();
			const ordersBeforeG = ordersOf();
			const outOrder = await runNode(sandbox, {
				parameters: {
					resource: 'order',
					operation: 'pay',
					qrCode: `https://qr.nspk.ru/AS${seed}G?sum=170000`,
					idempotencyKey: `pay-${seed}-g`,
				},
			});
			const madeG = ordersOf() > ordersBeforeG;
			count(`G pay ${drawn}: ${outcomeOf(outOrder)}${madeG ? ' (made)' : ''}`);
			const successOrder = outOrder.error === undefined && outOrder.paymentOutcome === undefined;
			// An order answered in a status the document does not list is no success (r23-money).
			check(
				!successOrder || (madeG && drawn !== 'failed' && drawn !== 'unlisted'),
				`G: order answered ${drawn} a success`,
			);
			check(outcomeOf(outOrder) !== 'not_paid' || !madeG, 'G: pay not_paid, order made');

			// States that come back: a payout refunded and charged again is never "not paid".
			const payout = [...sandbox.state.payouts.values()].find(
				(p) => p.companyId === company.id && p.externalId === extC,
			);
			if (payout && gen.money.returnState(payout)) {
				forgetAllSentWrites();
				const again = await runNode(sandbox, {
					parameters: toolCall,
					tool: true,
					executionId: '3',
				});
				count(`C after the state came back: ${outcomeOf(again)}`);
				check(
					outcomeOf(again) !== 'not_paid' ||
						(moved(company.id, extC) >= 1 && moved(company.id, extC) <= 1 + replayedC),
					'C: recharged then not_paid',
				);
				check(moved(company.id, extC) <= 1 + replayedC, 'C: paid twice after the state came back');
			}
			// Case H (r10-money F1): Payout Create and Payout Cancel answered as drawn (writeAnswer
			// failed: the payout failed at once, charged; the cancel answered with the payout the
			// executor declined just before it). A success item only for a record that stands; a
			// cancel is paid only when it acted and not_paid only when it did not.
			forgetAllSentWrites();
			const extH = `inv-${seed}-h`;
			const outH = await runNode(sandbox, { parameters: create(extH, `key-${seed}-h`) });
			const madeH = moved(company.id, extH) >= 1;
			count(`H create ${drawn}: ${outcomeOf(outH)}${madeH ? ' (moved)' : ''}`);
			const successH = outH.error === undefined && outH.paymentOutcome === undefined;
			check(!successH || (madeH && drawn !== 'failed'), `H: payout answered ${drawn} a success`);
			check(outcomeOf(outH) !== 'not_paid' || !madeH, 'H: create not_paid, money moved');
			const waiting = [...sandbox.state.payouts.values()].find(
				(p) =>
					p.companyId === company.id &&
					p.status === 'waiting_trader' &&
					!sandbox.generated.money.isPlanted(p.id),
			);
			if (waiting) {
				forgetAllSentWrites();
				const outX = await runNode(sandbox, {
					parameters: { resource: 'payout', operation: 'cancel', payoutId: waiting.id },
				});
				const cancelledX =
					waiting.status === 'fail' && waiting.failReason === 'cancelled_by_merchant';
				count(`H cancel ${drawn}: ${outcomeOf(outX)}${cancelledX ? ' (cancelled)' : ''}`);
				const successX = outX.error === undefined && outX.paymentOutcome === undefined;
				check(!successX || cancelledX, `H: cancel answered ${drawn} a success, not cancelled`);
				check(outcomeOf(outX) !== 'not_paid' || !cancelledX, 'H: cancel not_paid, it acted');
			} else count('H no waiting payout');

			// Case I (outside r14-money F2, F3): two items of one run under one External ID with the
			// same amount and card (a duplicated row), then the same payout once more from a new
			// process a minute later, while the service may answer a POST under a held External ID
			// with the payout it holds (heldAnswer). One payout is one success at most: the second
			// item's answer is another write's record (one record, one write), and the later run's
			// was made before it was sent (made by this write). Writes of two processes do not know
			// of each other, so the later run is judged by its record's time only.
			forgetAllSentWrites();
			const extI = `inv-${seed}-i`;
			const cardI = `22009876${String(seed).padStart(8, '0')}`;
			const createI = { ...create(extI, ''), requisite: cardI };
			const pair = await runNode(sandbox, { parameters: createI, items: 2, executionId: '41' });
			const success = (out) => out.error === undefined && out.paymentOutcome === undefined;
			const pairSuccesses = pair.filter(success).length;
			sandbox.clock.advance(60_000);
			forgetAllSentWrites();
			const later = await runNode(sandbox, { parameters: createI, executionId: '42' });
			const movedI = moved(company.id, extI);
			const heldI = gen.choices.money.heldAnswer;
			count(
				`I ${pair.map(outcomeOf).join('/')} then ${outcomeOf(later)} moved ${movedI}${heldI ? ' (held answer)' : ''}`,
			);
			check(pairSuccesses <= movedI, `I: ${pairSuccesses} successes of one run, ${movedI} moved`);
			// Nothing tells the held payout's age without a Date header beyond UNDATED_PREDATES_MS:
			// the named window. A createdAt written without its offset proves nothing any more, on the
			// write path as in Resolve Outcome (r16-money F2): no window.
			const unmeasured = !gen.choices.money.dateHeader;
			if (success(later) && pairSuccesses + 1 > movedI && unmeasured) {
				count('I later run paid by the held payout in the named window (no Date)');
			} else {
				check(
					pairSuccesses + (success(later) ? 1 : 0) <= movedI,
					`I: ${pairSuccesses + (success(later) ? 1 : 0)} successes, ${movedI} moved`,
				);
			}
			// Case J (outside r19-money F1 and its observations): Card Request answered as drawn
			// (answerShape): as made, with success:false, or with a card that is not this request's
			// (another External ID, or not the card the request names). The service made the request
			// each time: a success only for the answer as made, never not_paid; Resolve Outcome on an
			// unknown one never says not_paid.
			forgetAllSentWrites();
			const shapeJ = gen.choices.money.answerShape;
			const requestsBeforeJ = new Set(sandbox.state.cardRequests.keys());
			const outJ = await runNode(sandbox, {
				parameters: { resource: 'card', operation: 'request', externalId: `emp-${seed}-j` },
			});
			const madeJ = [...sandbox.state.cardRequests.values()].find(
				(request) => !requestsBeforeJ.has(request.id),
			);
			// Another card is shaped only into an answer that shows a card (a request fulfilled).
			const withCardJ = madeJ !== undefined && madeJ.status === 'fulfilled';
			const shapedJ =
				shapeJ === 'successFalse' ||
				(withCardJ && (shapeJ === 'otherCardExternalId' || shapeJ === 'otherCardId'));
			count(
				`J card request ${shapedJ ? shapeJ : 'asMade'}: ${outJ.outcome ?? outcomeOf(outJ)}${madeJ ? ' (made)' : ''}`,
			);
			const successJ = outJ.error === undefined && outJ.paymentOutcome === undefined;
			check(!successJ || (madeJ && !shapedJ), `J: card request answered ${shapeJ} a success`);
			check(outJ.paymentOutcome !== 'not_paid' || !madeJ, 'J: card request not_paid, made');
			if (outJ.paymentOutcome === 'unknown' && outJ.sentWrite) {
				const answersJ = await resolveLoop(outJ);
				for (const answer of answersJ) {
					check(answer.paymentOutcome !== 'paid' || madeJ, 'J: Resolve paid, nothing made');
					check(answer.paymentOutcome !== 'not_paid' || !madeJ, 'J: Resolve not_paid, made');
				}
			}
			// What errorAfterActing played (r20-money): error bodies after the service acted, by status.
			for (const draw of gen.log().draws) {
				if (draw.kind !== 'errorAfterActing') continue;
				count(`errorAfterActing ${draw.status}${draw.processed ? ' after acting' : ''}`);
			}
			// unlistedCode (mfix24): a write answered with a code the document does not list is never
			// sent again under its key by the same n8n process (Retry On Fail, a second call); an
			// accept only as the same request (its one quote), as the document promises its replay.
			const requests = gen.log().requests;
			for (const answered of requests.filter((q) => q.unlistedCode)) {
				if (!answered.idempotencyKey) continue;
				const processEnd = processStarts.find((at) => at >= answered.seq) ?? Infinity;
				const again = requests.filter(
					(q) =>
						q.seq > answered.seq &&
						q.seq <= processEnd &&
						q.route === answered.route &&
						q.idempotencyKey === answered.idempotencyKey,
				);
				const accept = answered.route === 'POST /orders/accept/:id';
				const resent = accept ? again.filter((q) => q.path !== answered.path) : again;
				if (accept && again.length > resent.length)
					count('unlistedCode accept re-sent as the same request');
				if (resent.length > 0) {
					problems.push(
						`${answered.route} answered ${answered.unlistedCode} was sent again ${resent.length} time(s) under its key in the same process${accept ? ' with another quote' : ''}`,
					);
				}
			}
			return problems;
		}

		it('no item paid unless money moved, nothing twice, no not_paid when money moved, Resolve agrees with the ledger', async () => {
			for (let seed = 1; seed <= SEEDS; seed++) {
				const problems = await playSeed(seed);
				for (const problem of problems) failures.push({ seed, problem });
			}
			if (BREAK) {
				assert.ok(true);
				return;
			}
			// The unlistedCode dimension is drawn (mfix24): over enough seeds some write meets it.
			if (SEEDS >= 50) {
				assert.ok(
					Object.keys(seen).some((what) => what.startsWith('unlistedCode ')),
					'no money write was answered with an unlisted code: the sandbox does not play unlistedCode',
				);
			}
			assert.deepEqual(
				failures.slice(0, 10).map((f) => `seed ${f.seed}: ${f.problem}`),
				[],
				`${failures.length} problems; replay one: MONEY_SEEDS=<seed> (choices: GET /__control/generated)`,
			);
		});
	},
);
