/**
 * Numbers the documentation states, taken from the code's own constants (issue 40, item 3).
 *
 * A page states such a number inside a marker, `<!--n:NAME-->text<!--/n-->`: GitHub and npm show
 * only the text; `npm run docs` (scripts/docs.mjs) writes the text from FACTS below, which reads
 * each value from the build in dist/; `test/docs/docs.test.mjs` fails while a page differs.
 *
 * Every numeric constant of the node's source (nodes/, credentials/: `const NAME = 1_000`, a list
 * of numbers, or an object of numbers) is either a fact here (its number may be stated in the
 * docs, only through a marker) or in NOT_STATED with the reason the docs do not give its number
 * (a page may name it, never with a number). A new constant is in neither list until someone
 * decides, and the docs test says so; a number written by hand in a sentence (or clause, list
 * item, table cell) that names a constant fails it too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { maskCode } from './links.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The built module that exports each constant a fact reads. */
const MODULES = {
	assumptions: 'nodes/shared/contract/assumptions.js',
	pager: 'nodes/shared/pager.js',
	learned: 'nodes/shared/gate/learned.js',
	patterns: 'nodes/shared/gate/patterns.js',
	fields: 'nodes/shared/gate/fields.js',
	retry: 'nodes/shared/transport/retry.js',
	idempotency: 'nodes/shared/money/key.js',
	sentWrites: 'nodes/shared/money/write.js',
	credentialTest: 'nodes/shared/credentialTest.js',
	locator: 'nodes/CompanyPayments/common/locator.js',
	resources: 'nodes/CompanyPayments/resources.js',
	pool: 'nodes/CompanyPayments/pool.js',
	search: 'nodes/CompanyPayments/listSearch/search.js',
	simple: 'nodes/CompanyPayments/common/simple.js',
	secretCache: 'nodes/CompanyPaymentsTrigger/secretCache.js',
	profileSecret: 'nodes/CompanyPaymentsTrigger/profileSecret.js',
	deliveries: 'nodes/CompanyPaymentsTrigger/deliveries.js',
	receive: 'nodes/CompanyPaymentsTrigger/receive.js',
	poll: 'nodes/CompanyPaymentsPollTrigger/description.js',
	pollState: 'nodes/CompanyPaymentsPollTrigger/state.js',
	evidence: 'nodes/shared/money/evidence.js',
	reference: 'nodes/shared/money/reference.js',
	replay: 'nodes/shared/money/replay.js',
	binding: 'nodes/shared/money/binding.js',
	proofs: 'nodes/shared/money/proofs.js',
	cancel: 'nodes/CompanyPayments/payout/cancel.operation.js',
	validation: 'nodes/CompanyPayments/common/validation.js',
	serviceError: 'nodes/shared/transport/serviceError.js',
};

function built(name) {
	const full = path.join(ROOT, 'dist', MODULES[name]);
	try {
		return require(full);
	} catch (error) {
		throw new Error(`cannot load ${full} (run npm run build first): ${error.message}`);
	}
}

/** 1000 → "1,000". */
const count = (value) => value.toLocaleString('en-US');
/** 500 → "0.5 s", 15000 → "15 s". */
const seconds = (ms) => `${count(ms / 1000)} s`;

/** Records per page each page after the first re-reads (nodes/shared/pager.ts). */
const overlapAt = (pageSize, overlap) => Math.min(overlap, Math.floor(pageSize / 4));

/** Requests the pager sends for `records` records (a list with a total) at `pageSize` a page. */
function requestsFor(records, pageSize, overlap) {
	const step = pageSize - overlapAt(pageSize, overlap);
	const offsets = [0];
	while (offsets.at(-1) + pageSize < records) offsets.push(offsets.at(-1) + step);
	return offsets;
}

/** "11 requests (0, 998, 1,996, …)" */
function requestsText(records, pageSize, overlap) {
	const offsets = requestsFor(records, pageSize, overlap);
	const shown = offsets.slice(0, 3).map(count).join(', ');
	return `${offsets.length} request${offsets.length === 1 ? '' : 's'} (${shown}${offsets.length > 3 ? ', …' : ''})`;
}

/**
 * Each fact: the constants it is made of (`from`: module and export name) and how the docs
 * write it. `text` gets the constants' values in the order of `from`.
 */
export const FACTS = {
	PAGE_SIZE: { from: [['assumptions', 'PAGE_SIZE']], text: count },
	/** Significant digits a number holds exactly; a number-typed amount is kept within them. */
	EXACT_NUMBER_DIGITS: { from: [['validation', 'EXACT_NUMBER_DIGITS']], text: count },
	/** The smallest number-typed amount of 2 decimal places refused (numberAmountLimit(2)). */
	'numberAmountLimit(2)': {
		from: [['validation', 'EXACT_NUMBER_DIGITS']],
		text: (digits) => count(10 ** (digits - 2)),
	},
	ANY_CASE_FROM: { from: [['learned', 'ANY_CASE_FROM']], text: count },
	/** A credential's piece hidden from this many characters of its random part, this many different. */
	PIECE_MIN: { from: [['learned', 'PIECE_MIN']], text: count },
	PIECE_VARIETY: { from: [['learned', 'PIECE_VARIETY']], text: count },
	/** The most groups of digits a card split over values is read in. */
	SPLIT_GROUPS_MAX: { from: [['fields', 'SPLIT_GROUPS_MAX']], text: count },
	PAGE_SIZE_STEPS: {
		from: [['assumptions', 'PAGE_SIZE_STEPS']],
		text: (steps) => steps.map(count).join(', '),
	},
	PAGE_OVERLAP: { from: [['assumptions', 'PAGE_OVERLAP']], text: count },
	ABSENT_POLLS_REMEMBERED: { from: [['pollState', 'ABSENT_POLLS_REMEMBERED']], text: count },
	PAGE_CONCURRENCY: { from: [['assumptions', 'PAGE_CONCURRENCY']], text: count },
	STALE_ARRIVALS: { from: [['pager', 'STALE_ARRIVALS']], text: count },
	/** Requests before a service ignoring offset on pages of one record is refused. */
	'staleRequests(1)': {
		from: [['pager', 'STALE_ARRIVALS']],
		text: (arrivals) => `${count(arrivals + 2)} requests`,
	},
	/** How many times fewer requests PAGE_SIZE costs than pages of 100. */
	'PAGE_SIZE/100': {
		from: [['assumptions', 'PAGE_SIZE']],
		text: (size) => `${count(size / 100)} times`,
	},
	/** The requests of a Return All over 10,000 records with a total, at PAGE_SIZE a page. */
	'requests(10000, PAGE_SIZE)': {
		from: [
			['assumptions', 'PAGE_SIZE'],
			['assumptions', 'PAGE_OVERLAP'],
		],
		text: (size, overlap) => requestsText(10_000, size, overlap),
	},
	'requests(250, 100)': {
		from: [['assumptions', 'PAGE_OVERLAP']],
		text: (overlap) => requestsText(250, 100, overlap),
	},
	'RETRY_BACKOFF.doubling': {
		from: [['assumptions', 'RETRY_BACKOFF']],
		text: ({ firstMs, capMs }) => {
			const waits = [firstMs];
			while (waits.length < 4 && waits.at(-1) * 2 < capMs) waits.push(waits.at(-1) * 2);
			return `${seconds(waits[0])}, then ${waits.slice(1).map(seconds).join(', ')} … up to ${seconds(capMs)}`;
		},
	},
	'RETRY_BACKOFF.firstMs': {
		from: [['assumptions', 'RETRY_BACKOFF']],
		text: (b) => seconds(b.firstMs),
	},
	'RETRY_BACKOFF.capMs': {
		from: [['assumptions', 'RETRY_BACKOFF']],
		text: (b) => seconds(b.capMs),
	},
	'RETRY_BACKOFF.minMs': {
		from: [['assumptions', 'RETRY_BACKOFF']],
		text: (b) => seconds(b.minMs),
	},
	'RETRY_BACKOFF.maxAttempts': {
		from: [['assumptions', 'RETRY_BACKOFF']],
		text: (b) => count(b.maxAttempts),
	},
	EXISTING_DISPUTE_AGE_MS: { from: [['assumptions', 'EXISTING_DISPUTE_AGE_MS']], text: seconds },
	DEFAULT_MAX_RETRY_WAIT_SECONDS: {
		from: [['retry', 'DEFAULT_MAX_RETRY_WAIT_SECONDS']],
		text: count,
	},
	IDEMPOTENCY_KEY_MAX_LENGTH: {
		from: [['idempotency', 'IDEMPOTENCY_KEY_MAX_LENGTH']],
		text: count,
	},
	MAX_KEPT: { from: [['sentWrites', 'MAX_KEPT']], text: count },
	MAX_NAMED: { from: [['sentWrites', 'MAX_NAMED']], text: count },
	QUOTE_LIMIT: { from: [['serviceError', 'QUOTE_LIMIT']], text: count },
	ENCODED_LIMIT: { from: [['patterns', 'ENCODED_LIMIT']], text: count },
	IDENTIFIER_WORD: { from: [['patterns', 'IDENTIFIER_WORD']], text: count },
	HELD_MS: {
		from: [['sentWrites', 'HELD_MS']],
		text: (ms) => `${count(ms / 60_000)} minutes`,
	},
	SIMPLE_MAX_FIELDS: { from: [['simple', 'SIMPLE_MAX_FIELDS']], text: count },
	RESOURCE_LOCATOR_VERSION: { from: [['locator', 'RESOURCE_LOCATOR_VERSION']], text: String },
	LEGACY_DEFAULTS_VERSION: { from: [['resources', 'LEGACY_DEFAULTS_VERSION']], text: String },
	READ_ONLY_DEFAULTS_VERSION: { from: [['resources', 'READ_ONLY_DEFAULTS_VERSION']], text: String },
	SECRET_MAX_AGE_MS: { from: [['secretCache', 'SECRET_MAX_AGE_MS']], text: seconds },
	REREAD_MIN_INTERVAL_MS: { from: [['secretCache', 'REREAD_MIN_INTERVAL_MS']], text: seconds },
	PROFILE_READ_MIN_INTERVAL_MS: {
		from: [['profileSecret', 'PROFILE_READ_MIN_INTERVAL_MS']],
		text: seconds,
	},
	DEFAULT_MAX_ENTRIES: { from: [['deliveries', 'DEFAULT_MAX_ENTRIES']], text: count },
	DEFAULT_MAX_AGE_HOURS: { from: [['deliveries', 'DEFAULT_MAX_AGE_HOURS']], text: count },
	DEFAULT_GRACE_MINUTES: { from: [['receive', 'DEFAULT_GRACE_MINUTES']], text: count },
	DEFAULT_WINDOW_DAYS: { from: [['poll', 'DEFAULT_WINDOW_DAYS']], text: count },
	DEFAULT_MAX_RECORDS: { from: [['poll', 'DEFAULT_MAX_RECORDS']], text: count },
	/** The most requests one poll sends for one list with the default Max Records. */
	'requests(DEFAULT_MAX_RECORDS, PAGE_SIZE)': {
		from: [
			['poll', 'DEFAULT_MAX_RECORDS'],
			['assumptions', 'PAGE_SIZE'],
			['assumptions', 'PAGE_OVERLAP'],
		],
		text: (records, size, overlap) => count(requestsFor(records, size, overlap).length),
	},
	READ_CONCURRENCY: { from: [['pool', 'READ_CONCURRENCY']], text: count },
	SEARCH_PAGE_SIZE: { from: [['search', 'SEARCH_PAGE_SIZE']], text: count },
	SEARCH_MAX_PAGES: { from: [['search', 'SEARCH_MAX_PAGES']], text: count },
	EXTERNAL_ID_MAX_LENGTH: { from: [['assumptions', 'EXTERNAL_ID_MAX_LENGTH']], text: count },
	MASK_MIN_DIGITS: { from: [['evidence', 'MASK_MIN_DIGITS']], text: count },
	MAX_IDENTITY_READS: { from: [['reference', 'MAX_IDENTITY_READS']], text: count },
	SKEW_MARGIN_MS: { from: [['binding', 'SKEW_MARGIN_MS']], text: seconds },
	UNMEASURED_SKEW_MS: { from: [['binding', 'UNMEASURED_SKEW_MS']], text: seconds },
	UNDATED_PREDATES_MS: { from: [['binding', 'UNDATED_PREDATES_MS']], text: seconds },
	PROOFS_KEPT: { from: [['proofs', 'PROOFS_KEPT']], text: count },
	CANCEL_SETTLE_MS: {
		from: [['cancel', 'CANCEL_SETTLE_MS']],
		text: (ms) => `${count(ms / 60_000)} minutes`,
	},
};

/**
 * Numeric constants of the source whose number the docs do not state, with the reason. A page
 * may name one (pointing at the code), but a number beside the name fails the docs test: a
 * stated number belongs in FACTS.
 */
export const NOT_STATED = {
	INN_10:
		"an INN's check-digit weights (the tax service's algorithm): data of the check, stated in words by the choice cardSchemes",
	INN_11:
		"an INN's check-digit weights (the tax service's algorithm): data of the check, stated in words by the choice cardSchemes",
	INN_12:
		"an INN's check-digit weights (the tax service's algorithm): data of the check, stated in words by the choice cardSchemes",
	LAST_REGISTRY_YEAR:
		'the last year an OGRN or OGRNIP number names (39, 2039): the choice cardSchemes states it in words (year 02–39)',
	SHOWN_PART_LENGTH:
		'the most characters a part of a secret under a Prefix or Mask name shows (r18-data F6): the choice secretCounters gives it in words',
	MASKED_NAMES_SHOWN:
		"how many masked field names a withheld raw body's note lists before a count: a bound on the note's length",
	TRACE_ID_MAX:
		"the longest record ID a named payment's trace keeps: a bound on the trace's size, whose measured size the docs state",
	TRACE_SEALS: "how many seal digests a named payment's trace keeps: a bound on the trace's size",
	SEALS_KEPT:
		"how many seal digests an unknown trace keeps once repeats add theirs (r9-money F6): a bound on the trace's size",
	WRITES_KEPT:
		"how many requests' sent times this process keeps for Resolve Outcome (otherWrites): a memory bound of proofs.ts",
	HISTORY_KEPT: 'how many measured clock skews are kept per Base URL: a memory bound of clock.ts',
	SERVICES_KEPT:
		'how many company fingerprints this process remembers the Base URL of (one record proves one write per Base URL): a memory bound of binding.ts',
	PEAKS_KEPT:
		'how many candidate largest skews are kept per Base URL (past it the two oldest merge, keeping the larger): a memory bound of clock.ts',
	ALONGSIDE_KEPT:
		"how many other writes of the same request a sent write names at most: a bound on the item's size",
	PHONE_MAX: 'the E.164 length of a phone number (as in evidence.ts); the docs name no count',
	LOOK_AGAIN_MINUTES:
		"Resolve Outcome's lookAgainAt carries the time itself; the docs say only a few minutes",
	RETRY_STATUSES: 'HTTP statuses: the docs name each status with what it means, not a count',
	NOT_PAID_STATUSES: 'a status range; docs/errors.md is generated from the error tables',
	ANSWERED_UNSURE_STATUSES:
		'HTTP statuses: the docs name each status with what it means, not a count',
	TEST_TIMEOUT_MS: 'inside the credential test; the docs say only that the test answers',
	FIRST_STATUS:
		'the lowest three-digit HTTP status the credential test has a rule for; the docs say every status outside 2xx',
	LAST_STATUS:
		'the highest three-digit HTTP status the credential test has a rule for; the docs say every status outside 2xx',
	SEEN_SHOWN: 'how many examples an error message lists',
	MASKED_SHOWS_DIGITS:
		'the docs say what a masked card number shows (its first six and last four digits), not the sum',
	MAX_CACHED_TRIGGERS: 'a memory bound far above any real number of triggers in one process',
	MAX_STORED_ID_LENGTH: 'a bound on stored delivery IDs against abuse, not a user setting',
	CHUNK_SIZE: 'an internal batch size of the delivery store',
	DAY_MS: 'milliseconds in a day',
	MAX_GATE_DEPTH:
		'how deep the gate reads a value before it cuts (against stack overflow); far above any record of the service, the docs say only that deeper parts are cut with a marker',
	FIELD_DEPTH:
		'how deep the field an operation opens (a new API key, the new webhook secret, a card number) is looked for in an answer; the docs say only that a nested one is found',
	DETAILS_DEPTH:
		"how deep the gate looks for an error's details in what a door shows (`error.details`, `context.details`); the docs name no depth",
	PROCESS_LIMIT:
		"a memory bound on the credentials' own values and on what the gate learned per credential",
	ADDRESS_BEFORE:
		"how far before a PIN word an address's or a card's word is looked for, to tell an Indian postal code from a card's PIN (patterns.ts postalPin); a reading bound the docs name by the constant",
	ADDRESS_AFTER:
		"how far after a PIN word's six digits an address's or a card's word is looked for (patterns.ts postalPin); a reading bound the docs name by the constant",
	SECRET_PIN_BEFORE_LENGTH:
		'how far right before a PIN word a word that makes it a secret (your, new, enter…) is looked for (patterns.ts postalPin); a reading bound the docs do not state',
	LABEL_LINE:
		'how far back on its line a PIN or CVV label is looked for before a value on the next line (patterns.ts labelLine); a reading bound the docs do not state',
	MADE_LIMIT:
		'a memory bound on the patterns made for the sets of learned values texts held (learned.ts ValueFinder); a speed detail',
	GRAM: "the length of the pieces the credentials' index is keyed by (learned.ts credentialsIn); a speed detail that changes nothing masked",
	ANCHOR:
		'the length of equal text that resynchronises a long comparison of a text with its masked form (patterns.ts changedSpans); a speed detail',
	MYERS_ALONE:
		"up to this many characters a text and its masked form are compared by Myers' algorithm alone; a speed detail",
	LCS_TABLE:
		'up to this many cells a text and its masked form are compared by a table (patterns.ts lcsSpans); a speed detail',
	RUN_LIMIT: 'a memory bound on the secrets the gate keeps for one run',
	MIN_IN_TEXT: 'the shortest learned value the gate looks for inside free text',
	SHORT_PASSWORD_MIN:
		'the shortest Base URL password the gate looks for as a whole word anywhere (docs/assumptions.md says 4 in words)',
	TIME_FROM: 'the earliest time a number under a time name may read as (docs say 2000-01-01)',
	TIME_UNTIL:
		'the end of the times a number under a time name may read as (docs say 2038-01-19, 2^31 s)',
	MERCHANT_LENGTH: 'how much of a merchant name a picker entry shows',
	RANK: 'the order in which Resolve Outcome prefers what it found (this write, a conflict, unproven, earlier), not a count',
	SEAL_VERSION: 'the version of the sealed form of a sent write, part of the seal itself',
	DIGEST_VERSION: 'the version of the keyed digest of a requisite, part of the digest itself',
	SKEW_KEPT_MS: 'how long a measured clock skew stands in for a write whose own answer was lost',
	MAX_PENDING: 'a memory bound on the references a tool keeps refusing until lookAgainAt',
	CREDENTIAL_SENDERS:
		"how many API keys' senders one n8n credential's list keeps for CREDENTIAL_KEY_CHANGED: a memory bound of write.ts",
	PHONE_MAX_DIGITS:
		'the E.164 length that tells a phone number from a card number (16 to 19 digits)',
};

/** The value of each fact's constants, and its text. */
export function factTexts() {
	const texts = {};
	for (const [name, fact] of Object.entries(FACTS)) {
		const values = fact.from.map(([module, constant]) => {
			const value = built(module)[constant];
			if (value === undefined) throw new Error(`${MODULES[module]} exports no ${constant}`);
			return value;
		});
		texts[name] = fact.text(...values);
	}
	return texts;
}

/** The constant names each fact reads. */
export const factConstants = () =>
	new Set(Object.values(FACTS).flatMap((fact) => fact.from.map(([, constant]) => constant)));

const MARKER = /<!--n:([^>]+?)-->([\s\S]*?)<!--\/n-->/g;

/** The markers of a text, outside code (a marker shown in a code span is an example). */
function markersOf(text) {
	return [...maskCode(text).matchAll(MARKER)].map((match) => ({
		name: match[1],
		start: match.index,
		end: match.index + match[0].length,
	}));
}

/** The text with every marker's content written from the code; unknown names throw. */
export function fillFacts(text, texts = factTexts()) {
	let out = '';
	let at = 0;
	for (const { name, start, end } of markersOf(text)) {
		if (!(name in texts)) throw new Error(`<!--n:${name}--> names no fact of scripts/facts.mjs`);
		out += `${text.slice(at, start)}<!--n:${name}-->${texts[name]}<!--/n-->`;
		at = end;
	}
	return out + text.slice(at);
}

/** The names used by the markers of a text. */
export const markerNames = (text) => markersOf(text).map((marker) => marker.name);

/** The text with every marker (and its content) blanked, newlines kept. */
export function withoutMarkers(text) {
	let out = '';
	let at = 0;
	for (const { start, end } of markersOf(text)) {
		out += text.slice(at, start) + text.slice(start, end).replace(/[^\n]/g, ' ');
		at = end;
	}
	return out + text.slice(at);
}

function sourceFiles(dir, found = []) {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) sourceFiles(full, found);
		else if (entry.name.endsWith('.ts')) found.push(full);
	}
	return found;
}

const NUMBER = String.raw`-?\d[\d_]*(?:\.\d+)?`;
const NUMERIC_CONSTANT = new RegExp(
	String.raw`^(?:export )?const ([A-Z][A-Z0-9_]*)\s*(?::[^=]+)?=\s*` +
		String.raw`(${NUMBER}\b|\[\s*${NUMBER}(?:\s*,\s*${NUMBER})*\s*,?\s*\]|\{\s*\w+:\s*${NUMBER}(?:\s*,\s*\w+:\s*${NUMBER})*\s*,?\s*\})`,
	'gm',
);

/**
 * Every numeric constant of the node's source: `const NAME = 1_000`, `= [1, 2]` or
 * `= { a: 1, b: 2 }`, exported or not, with its file.
 */
export function sourceConstants() {
	const found = new Map();
	for (const dir of ['nodes', 'credentials']) {
		for (const file of sourceFiles(path.join(ROOT, dir))) {
			const text = readFileSync(file, 'utf8');
			for (const match of text.matchAll(NUMERIC_CONSTANT)) {
				found.set(match[1], path.relative(ROOT, file));
			}
		}
	}
	return found;
}
