/**
 * The records of the interface document, field by field, with the kind of value each field holds
 * (issue 43). The output gate (`nodes/shared/gate/`) reads this model instead of guessing from
 * what a value looks like: an identifier or an amount is never changed, a secret is masked by its
 * field whatever it holds, and only free text and fields the document does not show are searched
 * for secrets by pattern.
 *
 * Every record the document shows is here, with the fields it names, and every webhook payload;
 * then the fields the package adds to its own output (a change key, a delivery ID). A field the
 * document does not show is `unknown`, and `unknownFieldKind` below is the one rule for it.
 */

/** What a field holds, as the document gives it. */
export type FieldKind =
	/** A record's ID, `payoutId`, the caller's External ID, a tx hash: never changed. */
	| 'identifier'
	/** A sum of money, a rate, a fee: never changed. */
	| 'amount'
	/** A card or phone number in full (a payout's recipient): the user sees it, the model its last digits. */
	| 'requisite'
	/** A number the service already masked (`maskedPan`). */
	| 'maskedRequisite'
	/** An API key, session token, webhook secret, invite token, card number, CVV: masked by its field. */
	| 'secret'
	/** A link: its tokens hidden (and for the model, a record's own link cut to its host). */
	| 'link'
	/** Messages, descriptions, comments, names: searched for secrets by pattern. */
	| 'text'
	/** A timestamp or a date. */
	| 'time'
	/** A status, a type, a code from a fixed list, a flag. */
	| 'state'
	/** A field the document does not show: see `unknownFieldKind`. */
	| 'unknown';

/** How a secret is shown once masked. */
export type SecretForm = 'key' | 'webhookSecret' | 'cardNumber' | 'cvv' | 'token';

/** A field's kind, and for a secret its form, for a link whether it is the record's own. */
export interface FieldSpec {
	kind: FieldKind;
	secret?: SecretForm;
	/** A record's own link that carries a token to share (an invite's `url`). */
	ownLink?: boolean;
	/** A field holding another record (the order inside a dispute): its fields by that record. */
	record?: string;
	/**
	 * A time (`kind: 'time'`) the document does not show, named by the unknown-field rule: what
	 * its value must be to be kept exactly (gate/fields.ts plausibleTime). `count`: a count or a
	 * sequence number, any plain whole number; else a time, whose plain number of 13 digits or more
	 * must read as a time of 2000-01-01 up to 2038-01-19 in seconds, milliseconds, microseconds or
	 * nanoseconds.
	 */
	timeName?: { count: boolean };
	/**
	 * A key-ish name (`key`, `memberKey`, `lookupToken`): a value written as a code (`order_payment`,
	 * `wallet.deposit`, `USDT`) is a lookup key, not a secret: kept and never learned.
	 */
	codeKept?: boolean;
	/**
	 * An unknown field named for a card (`cardHint`, `panRef`: any number with the card checksum in
	 * it is a card's) or for a registry's number (`payeeOgrn`, `inn`: none is, unless a card word
	 * names it); gate/patterns.ts cardAt, contract/choices.ts `cardSchemes`.
	 */
	numberName?: 'card' | 'registry';
	/**
	 * A secret's name under which some values cannot be secrets (outside read r18-data, findings 5
	 * and 6; secretValueShown): `material`, a short name (`pk`, `sk`, `sid`, `priv`) that holds a
	 * secret only when its value is long key material; `short`, a part of a secret (`apiKeyPrefix`,
	 * `tokenMask`) of at most SHOWN_PART_LENGTH characters.
	 */
	valueRule?: 'material' | 'short';
	/** Named for a registry: its numbers (REGISTRY_LENGTHS, registryNumber) are the only ones kept. */
	registries?: readonly Registry[];
}

const ID: FieldSpec = { kind: 'identifier' };
const AMOUNT: FieldSpec = { kind: 'amount' };
const TEXT: FieldSpec = { kind: 'text' };
const TIME: FieldSpec = { kind: 'time' };
const STATE: FieldSpec = { kind: 'state' };
const LINK: FieldSpec = { kind: 'link' };

/** The records of the document (section "Resources and their fields", "Events", "Errors"). */
export const RECORDS = {
	companyProfile: {
		webhookUrl: LINK,
		webhookSecret: { kind: 'secret', secret: 'webhookSecret' },
	},
	quote: { id: ID },
	order: {
		id: ID,
		amountUsdt: AMOUNT,
		amountRub: AMOUNT,
		status: STATE,
		paymentType: STATE,
		paymentUntil: TIME,
		merchantName: TEXT,
		externalOrderId: ID,
		completedAt: TIME,
		failureReason: TEXT,
		createdAt: TIME,
	},
	orderSummary: {
		id: ID,
		externalOrderId: ID,
		status: STATE,
		amountUsdt: AMOUNT,
		amountRub: AMOUNT,
		rate: AMOUNT,
		nspkBrandName: TEXT,
		createdAt: TIME,
	},
	dispute: {
		id: ID,
		orderId: ID,
		status: STATE,
		resolution: STATE,
		reason: TEXT,
		adminComment: TEXT,
		resolvedBy: TEXT,
		refundAmount: AMOUNT,
		resolvedAt: TIME,
		createdAt: TIME,
		updatedAt: TIME,
		order: { kind: 'unknown', record: 'orderSummary' },
	},
	/** Fields not shown; its events name these. */
	companyDeposit: {
		depositId: ID,
		txHash: ID,
		walletAddress: ID,
		fromAddress: ID,
		amount: AMOUNT,
		tokenSymbol: STATE,
		status: STATE,
		sweepTxHash: ID,
		amlCheckId: ID,
		amlResult: TEXT,
		error: TEXT,
		createdAt: TIME,
		updatedAt: TIME,
	},
	balance: { usdtBalance: AMOUNT, frozenBalance: AMOUNT },
	/**
	 * The company's card settings the document names (Limits, "card request reserve"; the card
	 * request's flow): where an answer shows them (the profile), amounts. `cardsTestMode` too.
	 */
	companySettings: {
		cardOpeningFeeUsdt: AMOUNT,
		cardMinInitialDepositUsdt: AMOUNT,
		openingFee: AMOUNT,
		cardsTestMode: STATE,
	},
	balanceHistoryEntry: { referenceId: ID },
	userWallet: { id: ID, walletId: ID, externalId: ID },
	userWalletDeposit: {
		id: ID,
		companyId: ID,
		walletId: ID,
		externalId: ID,
		walletAddress: ID,
		txHash: ID,
		fromAddress: ID,
		amount: AMOUNT,
		status: STATE,
		amlCheckId: ID,
		amlRiskIndicator: STATE,
		sweepTxHash: ID,
		error: TEXT,
		blockTimestamp: TIME,
		createdAt: TIME,
	},
	userWalletDeposits: { total: AMOUNT },
	card: {
		id: ID,
		externalId: ID,
		status: STATE,
		maskedPan: { kind: 'maskedRequisite' },
		expiry: TIME,
		assignedAt: TIME,
		createdAt: TIME,
	},
	cardRequest: { id: ID, externalId: ID, status: STATE, cardId: ID, createdAt: TIME },
	cardBalance: { balance: AMOUNT, currency: STATE, fetchedAt: TIME },
	cardSensitiveData: {
		cardId: ID,
		cardNumberFull: { kind: 'secret', secret: 'cardNumber' },
		cardCvv: { kind: 'secret', secret: 'cvv' },
		expiry: TIME,
	},
	rechargeQuote: {
		cardId: ID,
		targetAmount: AMOUNT,
		processorFeeBps: AMOUNT,
		processorGrossAmount: AMOUNT,
		ourFeeBps: AMOUNT,
		ourFee: AMOUNT,
		userCharge: AMOUNT,
		commissionUsdt: AMOUNT,
		totalDebitUsdt: AMOUNT,
		currency: STATE,
	},
	payout: {
		id: ID,
		externalId: ID,
		status: STATE,
		amountRub: AMOUNT,
		chargedUsdt: AMOUNT,
		rate: AMOUNT,
		requisiteType: STATE,
		requisite: { kind: 'requisite' },
		bankId: ID,
		bank: TEXT,
		recipientFirstName: TEXT,
		recipientLastName: TEXT,
		failReason: STATE,
		comment: TEXT,
		refundedAt: TIME,
		dispute: { kind: 'unknown', record: 'payoutDispute' },
		takenAt: TIME,
		completedAt: TIME,
		createdAt: TIME,
	},
	payoutDispute: {
		id: ID,
		status: STATE,
		resolution: STATE,
		comment: TEXT,
		openedAt: TIME,
		resolvedAt: TIME,
	},
	/** Fields not shown beyond a role and a permissions list, and the member's own API key. */
	member: {
		userId: ID,
		role: STATE,
		permissions: STATE,
		apiKey: { kind: 'secret', secret: 'key' },
	},
	/** Fields not shown beyond a `url` to share, a `status` and permissions; its token is a secret. */
	invite: {
		id: ID,
		url: { kind: 'link', ownLink: true },
		status: STATE,
		permissions: STATE,
		token: { kind: 'secret', secret: 'token' },
	},
	errorBody: {
		statusCode: STATE,
		error: TEXT,
		errorCode: STATE,
		message: TEXT,
		details: TEXT,
		required: STATE,
		path: LINK,
		timestamp: TIME,
		requestId: ID,
	},
} as const satisfies Record<string, Record<string, FieldSpec>>;

export type RecordName = keyof typeof RECORDS;

/** The webhook payloads of the document's "Event kinds" table (every body also has `event`). */
export const EVENT_PAYLOADS = {
	'order.status_changed': {
		orderId: ID,
		walletOrderId: ID,
		status: STATE,
		amountUsdt: AMOUNT,
		amountRub: AMOUNT,
		completedAt: TIME,
		failureReason: TEXT,
		createdAt: TIME,
	},
	'deposit.created': {
		depositId: ID,
		txHash: ID,
		walletAddress: ID,
		fromAddress: ID,
		amount: AMOUNT,
		tokenSymbol: STATE,
		status: STATE,
		createdAt: TIME,
		updatedAt: TIME,
		externalId: ID,
	},
	'deposit.completed': {
		depositId: ID,
		txHash: ID,
		walletAddress: ID,
		amount: AMOUNT,
		status: STATE,
		sweepTxHash: ID,
		createdAt: TIME,
		updatedAt: TIME,
		externalId: ID,
	},
	'deposit.aml_failed': {
		depositId: ID,
		txHash: ID,
		amount: AMOUNT,
		status: STATE,
		amlCheckId: ID,
		amlResult: TEXT,
		error: TEXT,
		createdAt: TIME,
		externalId: ID,
	},
	'payout.status_changed': payoutPayload(),
	'payout.recharged': payoutPayload(),
	'card.assigned': { externalId: ID, cardId: ID },
} as const satisfies Record<string, Record<string, FieldSpec>>;

function payoutPayload() {
	return {
		payoutId: ID,
		externalId: ID,
		status: STATE,
		amountRub: AMOUNT,
		chargedUsdt: AMOUNT,
		rate: AMOUNT,
		requisiteType: STATE,
		requisite: { kind: 'requisite' },
		bankId: ID,
		bank: TEXT,
		failReason: STATE,
		comment: TEXT,
		refunded: STATE,
		disputeStatus: STATE,
		disputeResolution: STATE,
		completedAt: TIME,
		createdAt: TIME,
		updatedAt: TIME,
	} as const satisfies Record<string, FieldSpec>;
}

/**
 * Fields the package adds to what it puts out (its own, not the service's): the trigger's item
 * fields, the keys it derives, the explanations an error carries.
 */
export const PACKAGE_FIELDS = {
	event: STATE,
	deliveryId: ID,
	receivedAt: TIME,
	deduplicationChecked: STATE,
	changeKey: ID,
	source: STATE,
	walletType: STATE,
	fundsReturned: STATE,
	fundsReturnedNote: TEXT,
	idempotencyKey: ID,
	paymentReference: ID,
	description: TEXT,
	whatToDo: TEXT,
	hint: TEXT,
	rawBody: TEXT,
	rawBodyMasked: STATE,
	rawBodyNote: TEXT,
	masked: STATE,
	/**
	 * A money write's sealed sent write (nodes/shared/money/write.ts): kept exact at every depth,
	 * or its seal breaks and the unknown can never be resolved (r4-money-resolve F7/F8). Each of its
	 * fields is the node's own or the user's own input, never a secret: `digests` and `seal` are
	 * opaque HMACs, `company` a fingerprint, `identity` the External ID the user gave, and
	 * `details` the asked details with the recipient's number already masked by the node.
	 */
	sentWrite: ID,
} as const satisfies Record<string, FieldSpec>;

/* ------------------------------------------------------------ one kind per field name */

/**
 * The kind of every field name the model shows, across records, payloads and the package's own
 * fields. A name means one thing wherever it stands (`id` is an identifier in every record,
 * `status` a state): `test/unit/records.test.ts` fails when two records give one name two kinds.
 */
const BY_NAME = new Map<string, FieldSpec>();
for (const fields of [
	...Object.values(RECORDS),
	...Object.values(EVENT_PAYLOADS),
	PACKAGE_FIELDS,
] as Array<Record<string, FieldSpec>>) {
	for (const [name, spec] of Object.entries(fields)) {
		const known = BY_NAME.get(name);
		// A nested record's field keeps its record; an own link stays the stronger reading.
		if (!known || spec.record || spec.ownLink) BY_NAME.set(name, spec);
	}
}

/** Every (name, kind) the model gives, for the tests. */
export function documentedFields(): Array<[string, FieldSpec]> {
	return [...BY_NAME.entries()];
}

/* ------------------------------------------------------------ the rule for unknown fields */

/** A name cut into its lower-case words: `apiKeyType` → api, key, type; `X-Api-Key` → x, api, key. */
export function nameWords(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((word) => word !== '');
}

/** Last words that say a field describes a secret rather than holds one: `apiKeyType`, `webhookSecretSet`. */
const ABOUT_WORDS = new Set([
	'type',
	'kind',
	'name',
	'field',
	'label',
	'status',
	'state',
	'at',
	'date',
	'time',
	'count',
	'length',
	'set',
	'enabled',
	'configured',
	'present',
	'exists',
	'required',
	'version',
	'scope',
	'scopes',
	'permissions',
	'expires',
	'expiry',
	// Until when a secret holds (`previousSecretValidUntil`, `keyValidUntil`): a time, no secret
	// (outside read r16-data, finding 7).
	'until',
	'hint',
	'last4',
	'symbol',
	'masked',
	// A flag of a change or a check (outside read r16-data: `pinChanged`, `cvvChecked`).
	'changed',
	'checked',
	'updated',
	'created',
	'rotated',
	'revoked',
	'valid',
	'active',
	'expired',
]);
/** First words of a flag's name (`hasPin`, `isPinSet`, `hasWebhookSecret`): it holds no secret. */
const FLAG_FIRST_WORDS = new Set(['has', 'is', 'was', 'can', 'should', 'needs']);
/**
 * Last words of an identifier: `id`, `orderId`, `order_id`, `invoiceRef`, `txHash`, `externalId`,
 * and a unique ID's other names (`uid`, `orderUid`, `sbpOperationUid`, `guid`: outside read
 * r14-data, finding 8; a 19-digit one passes the card checksum one time in ten).
 */
const ID_WORDS = new Set([
	'id',
	'ids',
	'uuid',
	'uid',
	'uids',
	'guid',
	'guids',
	'reference',
	'ref',
	'hash',
]);
/**
 * Last words of a number that names a record (`orderNumber`, `sbpOperationNumber`, `invoice_no`):
 * an identifier, kept exact whatever its digits look like (outside read r6-data-b, finding 2),
 * unless another word of the name says it is a card, phone, account or person's number.
 */
const NUMBER_WORDS = new Set(['number', 'no', 'num', 'nr']);
/** Words that make a `…Number` a requisite or personal number, never an identifier. */
const NOT_ID_NUMBER_WORDS = new Set([
	'card',
	'pan',
	// A card's abbreviations (`ccNumber`, `cc_no`, `ccNum`; outside read r11-data, finding 1).
	'cc',
	'credit',
	'debit',
	'phone',
	'mobile',
	'tel',
	'msisdn',
	'account',
	'acct',
	'requisite',
	'iban',
	'passport',
	'ssn',
	'cvv',
	'cvc',
	'pin',
	'security',
	'recipient',
	'beneficiary',
]);
/**
 * Words before a last `key` that name no secret (`idempotencyKey`, `changeKey`, `sortKey`):
 * any other `…Key` / `…Keys` / `…Secret(s)` holds one (outside read r6-data-b, finding 4:
 * `memberKey`, `sessionKey`, `authKey`, `signingKey`, `hmacKey`, `userKey`).
 */
const NON_SECRET_KEY_WORDS = new Set([
	'idempotency',
	'change',
	'dedup',
	'dedupe',
	'deduplication',
	'sort',
	'partition',
	'primary',
	'foreign',
	'cache',
	'lookup',
	'routing',
	'object',
	'group',
	'event',
	'message',
	'translation',
	'i18n',
	'label',
	'map',
	'public',
	'range',
	'row',
	'column',
	'composite',
	'natural',
	'business',
	'unique',
	'index',
]);
/**
 * Words anywhere in a name that say it counts, limits or flags something about a secret rather than
 * holding it (outside read r16-data, finding 1: `pinTriesLeft`, `remainingPinAttempts`,
 * `failedPinAttempts`, `cvvRetries`, `apiKeyCountMax`): a state, never the secret. The same for a
 * PIN, a CVV, a card number, a key and a secret's name. Only words that never name a secret's
 * value (not `new`, `current`, `masked`, `value`).
 */
const COUNTER_WORDS = new Set([
	'tries',
	'try',
	'attempts',
	'attempt',
	'retries',
	'retry',
	'remaining',
	'left',
	'failed',
	'failures',
	'failure',
	'count',
	'counter',
	'max',
	'min',
	'limit',
	'limits',
	'locked',
	'lockout',
	'blocked',
	'length',
	'status',
	'enabled',
	'disabled',
	'result',
	'check',
	'match',
	'mismatch',
	'declined',
	'rejected',
	'verified',
	'error',
	'errors',
	'missing',
	'required',
	// What kind of secret is wanted and how (outside read r17-data, finding 3: `pinPolicy`,
	// `cvvPolicy`, `passwordPolicy`, `passwordStrength`, `pinFormat`, `pinMode`): a setting, no
	// secret, wherever the word stands (`passwordPolicyLevel`).
	'policy',
	'policies',
	'strength',
	'rule',
	'rules',
	'format',
	'formats',
	'type',
	'types',
	'kind',
	'mode',
	'modes',
	'requirement',
	'requirements',
	'complexity',
	'score',
	'level',
	'pattern',
	'regex',
	'method',
	'methods',
	'supported',
	'allowed',
]);
/**
 * Last words that name a secret's value itself after its name (`pinValue`, `apiKeyPlain`,
 * `sessionTokenValue`): the name without them is read.
 */
const VALUE_WORDS = new Set(['value', 'val', 'plain', 'raw', 'clear', 'plaintext', 'unmasked']);
/**
 * Words before a last `key` / `keys` that make it a credential (outside read r16-data, finding 8;
 * r6-data-b, finding 4: `memberKey`, `sessionKey`, `authKey`, `signingKey`, `hmacKey`, `userKey`):
 * a secret whatever else the name says (`orderSigningKey`).
 */
const CREDENTIAL_KEY_WORDS = new Set([
	'api',
	'secret',
	'private',
	'access',
	'signing',
	'sign',
	'signature',
	'auth',
	'authentication',
	'authorization',
	'hmac',
	'mac',
	'session',
	'member',
	'user',
	'company',
	'client',
	'merchant',
	'partner',
	'master',
	'root',
	'admin',
	'encryption',
	'encrypt',
	'decryption',
	'decrypt',
	'crypto',
	'cipher',
	'symmetric',
	'aes',
	'rsa',
	'ssh',
	'gpg',
	'pgp',
	'webhook',
	'bearer',
	'shared',
	'psk',
	'license',
	'licence',
	'app',
	'application',
	'service',
	'integration',
	'developer',
	'account',
	'wallet',
	'seed',
	'recovery',
	'backup',
	'otp',
	'totp',
	'mfa',
	'jwt',
	'jwk',
	'live',
	'test',
	'prod',
	'production',
	'staging',
	'sandbox',
	'pass',
	'login',
	'secure',
	'security',
	'kms',
	'vault',
	'data',
	'transport',
	'terminal',
	'device',
	'zmk',
	'tmk',
	'tpk',
	'bdk',
	'ipek',
]);
/**
 * Words before a last `key` / `keys` that name a record, a period or a lookup (outside read
 * r16-data, finding 8: `orderKey`, `periodKey`, `paymentKey`, `invoiceKey`, `referenceKey`,
 * `statusKey`, `typeKey`, `categoryKey`): an identifier or a lookup key, no secret, unless a
 * credential's word stands beside (CREDENTIAL_KEY_WORDS). With NON_SECRET_KEY_WORDS.
 */
const RECORD_KEY_WORDS = new Set([
	'order',
	'orders',
	'payment',
	'payments',
	'payout',
	'payouts',
	'invoice',
	'invoices',
	'period',
	'reference',
	'ref',
	'status',
	'state',
	'type',
	'kind',
	'category',
	'categories',
	'class',
	'deposit',
	'deposits',
	'withdrawal',
	'transaction',
	'transactions',
	'tx',
	'quote',
	'dispute',
	'refund',
	'request',
	'record',
	'entry',
	'item',
	'items',
	'line',
	'field',
	'attribute',
	'property',
	'param',
	'parameter',
	'setting',
	'settings',
	'config',
	'option',
	'feature',
	'product',
	'sku',
	'plan',
	'date',
	'day',
	'month',
	'year',
	'week',
	'hour',
	'time',
	'bucket',
	'window',
	'page',
	'cursor',
	'search',
	'filter',
	'query',
	'country',
	'currency',
	'locale',
	'language',
	'lang',
	'region',
	'network',
	'chain',
	'history',
	'report',
	'batch',
	'balance',
	'ledger',
	'operation',
	'step',
	'stage',
	'template',
	'resource',
	'entity',
	'model',
	'node',
	'name',
	'slug',
	'path',
	'route',
	'bank',
	'method',
	'channel',
	'source',
	'target',
	'external',
	'customer',
]);
/** Words before a last `key` that only qualify it (`newKey`, `currentKey`): read past. */
const KEY_MODIFIERS = new Set(['new', 'old', 'current', 'previous', 'prev', 'next', 'the', 'my']);
/** Last words of an amount. */
const AMOUNT_WORDS = new Set([
	'amount',
	'balance',
	'fee',
	'fees',
	'total',
	'sum',
	'price',
	'rate',
	'usdt',
	'rub',
	'usd',
	'bps',
]);
/** Names (words run together) that hold a secret wherever they appear in a name. */
const SECRET_PARTS = [
	'password',
	'passcode',
	'personalidentificationnumber',
	'hmac',
	'mnemonic',
	'seedphrase',
	'recoveryphrase',
	'mnemonicphrase',
	'secretphrase',
	'passwd',
	'passphrase',
	'apikey',
	'privatekey',
	'accesskey',
	'secretkey',
	'authorization',
	'bearer',
	'jwt',
	'cookie',
	'credential',
	'secret',
];
/** Whether a name's joined words hold one of SECRET_PARTS (`secret`, not `secretary`). */
function secretPart(joined: string): boolean {
	return SECRET_PARTS.some((part) =>
		part === 'secret' ? /secret(?!ar)/.test(joined) : joined.includes(part),
	);
}
/**
 * Words of a card's verification code: `csc`, `cvn`, `cvd` (cvv/cvc anywhere in a name), and the
 * other ways services write it (outside read r17-data, finding 1: `cv2`, `ccv`).
 */
const CVV_WORDS = new Set(['csc', 'csc2', 'cvn', 'cvn2', 'cvd', 'cvd2', 'cv2', 'ccv', 'ccv2']);
/** Words of a PIN (`pin`, a transaction PIN `tpin`; a digit after: `pin1`, `pin2` are read apart). */
const PIN_WORDS = new Set(['pin', 'tpin']);
/**
 * Words right before a last `code` that make the code a secret (outside read r17-data, finding 1:
 * `cardCode` (a CVV's name in some APIs), `secCode`, `smsCode`, `authCode`, `activationCode`): a
 * code a person types to prove something. A code of a thing (`errorCode`, `bankCode`,
 * `currencyCode`, `cardTypeCode`) is none.
 */
const SECRET_CODE_WORDS = new Set([
	'card',
	'sec',
	'security',
	'sms',
	'auth',
	'activation',
	// A 3-D Secure code (`threeDsCode`, `3dsCode`).
	'ds',
	'3ds',
	'secure',
	'verification',
	'verify',
	'confirmation',
	'confirm',
	'otp',
	'totp',
	'mfa',
	'access',
	'unlock',
	'puk',
	'recovery',
	'backup',
	'login',
	'pin',
]);
/** Whole names of a wallet's seed, and words before a last `seed` that make it one (`walletSeed`). */
const SEED_WORDS = new Set(['wallet', 'master', 'recovery', 'mnemonic', 'private', 'bip39', 'hd']);
/**
 * Words a name may glue together in one case (`pincode`, `PINCODE`, `cardpin`, `cvvcode`,
 * `pinpolicy`, `smscode`; outside read r17-data, finding 1): a lower-cased word that is wholly made
 * of these (and a number at its end: `pin2`) is read as these words, so a glued name reads as its
 * camelCase form does. A word with anything else (`shipping`, `pinned`, `spinner`, `opinion`) is
 * kept whole, and names no PIN.
 */
const SECRET_WORD_PARTS = new Set([
	...PIN_WORDS,
	...CVV_WORDS,
	...SECRET_CODE_WORDS,
	'cvv',
	'cvc',
	'code',
	'password',
	'passcode',
	'pwd',
	'pass',
	'secret',
	'priv',
	'private',
	'key',
	'token',
	'api',
	'new',
	'old',
	'current',
	'temp',
	'temporary',
	'initial',
	'default',
	'number',
	'value',
	'plain',
	'raw',
	'clear',
]);
/** Words whose presence in a glued word lets it be read apart (a secret's word). */
const GLUED_SECRET_WORDS = new Set([
	...PIN_WORDS,
	...CVV_WORDS,
	'cvv',
	'cvc',
	'password',
	'passcode',
	'pwd',
	// A private key glued (`privkey`, `PRIVKEY`, `privatekey`; outside read r18-data, finding 5).
	'priv',
	'private',
]);
/** A glued lower-case word as the words it is made of, else undefined (`pincode` → pin, code). */
function gluedParts(word: string, vocabulary: ReadonlySet<string>): string[] | undefined {
	if (word.length > 40) return undefined;
	// Best split of each prefix (fewest parts), by dynamic programming over the word's ends.
	const best: Array<string[] | undefined> = [[]];
	for (let end = 1; end <= word.length; end++) {
		for (let start = 0; start < end; start++) {
			const head = best[start];
			if (head === undefined) continue;
			const part = word.slice(start, end);
			const digits = /^\d+$/.test(part) && start > 0;
			if (!vocabulary.has(part) && !digits) continue;
			if (best[end] === undefined || (best[end] as string[]).length > head.length + 1) {
				best[end] = [...head, part];
			}
		}
	}
	const parts = best[word.length];
	return parts && parts.length > 1 ? parts : undefined;
}
const GLUED_VOCABULARY: ReadonlySet<string> = new Set([
	...SECRET_WORD_PARTS,
	...COUNTER_WORDS,
	...ABOUT_WORDS,
	...FLAG_FIRST_WORDS,
]);
/**
 * A name's words with each glued word read apart where it is made of secret and describing words
 * and names a secret's word (a PIN, a CVV, a password, or a code after SECRET_CODE_WORDS:
 * `smscode`); `errorcode` or `statuscode` stay whole.
 */
function secretReadWords(words: readonly string[]): string[] {
	return words.flatMap((word) => {
		const parts = gluedParts(word, GLUED_VOCABULARY);
		if (parts === undefined) return [word];
		const secret =
			parts.some((part) => GLUED_SECRET_WORDS.has(part)) ||
			parts.some((part, index) => part === 'code' && SECRET_CODE_WORDS.has(parts[index - 1]));
		return secret ? parts : [word];
	});
}
/** Words that name a card in a card number's name (`ccNumber`, `pan_no`). */
const CARD_ABBREVIATIONS = new Set(['cc', 'pan', 'card']);
/** Whole names that hold a secret. */
const SECRET_NAMES = new Set([
	'key',
	'keyvalue',
	'newkey',
	'pin',
	'session',
	'sessionid',
	'otp',
	'sig',
	'signature',
	// Outside read r17-data, finding 1: a password's short name, a wallet's seed.
	'pwd',
	'seed',
]);
/** Whole names of a record's own link. */
const OWN_LINK_NAMES = new Set([
	'url',
	'uri',
	'link',
	'href',
	'inviteurl',
	'invitelink',
	'inviteuri',
	'joinurl',
	'joinlink',
	'accepturl',
	'acceptlink',
]);
/** Whole names of free text. */
const TEXT_NAMES = new Set(['message', 'servicemessage', 'note', 'notes', 'reason', 'comment']);

/** Last words of a time: `createdAt`, `eventTime`, `timestamp`, `settledAtUs`, `confirmedAtNs`. */
const TIME_WORDS = new Set(['at', 'time', 'timestamp', 'ts', 'date', 'datetime', 'epoch']);
/** Units a time's name may end with, after a word of a time (`createdAtUs`, `eventTimeMs`). */
const TIME_UNITS = new Set(['us', 'ns', 'ms', 'micros', 'nanos', 'millis', 'usec', 'nsec', 'msec']);
/** Last words of a count or a sequence number: `ledgerSeq`, `retryCount`, `blockHeight`, `nonce`. */
const COUNT_WORDS = new Set([
	'seq',
	'sequence',
	'count',
	'nonce',
	'height',
	'version',
	'index',
	'offset',
	'confirmations',
]);

/** Words that name a card or its number: a name with one never names a time or a count. */
const CARD_NAME_WORDS = new Set(['card', 'cards', 'cc', 'pan', 'pans', 'requisite', 'iban']);
/**
 * A name of a time or a count (outside read r9-data, finding 2; contract/choices.ts
 * `timeNumbers`): its value is kept exactly when it can be one (gate/fields.ts plausibleTime),
 * never read for a card number's look (a microsecond time such as 1764374400000009 passes the
 * card checksum, as one 15–19 digit number in ten does). A name with a word of a card or its
 * number (`panSeq`, `lastCardTs`, `cardNumberUpdatedAt`) is none (outside read r10-data,
 * finding 1): a card number may stand under it.
 */
function timeOrCountName(words: readonly string[]): FieldSpec['timeName'] {
	if (words.some((word) => CARD_NAME_WORDS.has(word))) return undefined;
	const last = words[words.length - 1] ?? '';
	if (COUNT_WORDS.has(last)) return { count: true };
	if (TIME_WORDS.has(last)) return { count: false };
	const before = words[words.length - 2] ?? '';
	if (TIME_UNITS.has(last) && (TIME_WORDS.has(before) || before.endsWith('time'))) {
		return { count: false };
	}
	return undefined;
}

/**
 * The rule for a field the document does not show, by its name alone, in this order:
 * 1. a name that describes a secret holds none: by its last word (`apiKeyType`, `tokenSymbol`,
 *    `secretSet`) or a word anywhere that counts or flags (`pinTriesLeft`, `remainingPinAttempts`,
 *    `cvvRetries`: COUNTER_WORDS), one rule for a PIN, CVV, card number, key and secret name;
 * 2. a name of a secret (`apiKey`, `session_token`, `password`, `cvv`, `cardNumber`, `pan`, and
 *    with a value word after: `pinValue`) is a secret, masked by its field (also a value that is
 *    an object or a list). So is a name ending in `key`, `keys` or `secrets` with a credential's
 *    word before (`memberKey`, `hmacKey`, `signing_key`: CREDENTIAL_KEY_WORDS) or none of a
 *    record's or a lookup's (bare `key`, `widgetKey`: key-ish, a value that cannot be a secret
 *    kept); a record's or lookup's key (`orderKey`, `periodKey`, `idempotencyKey`, `sortKey`:
 *    RECORD_KEY_WORDS, NON_SECRET_KEY_WORDS) is no secret;
 * 3. a name of an identifier (`id`, `*Id`, `*_id`, `*Ref`, `reference`, `*Hash`, and a number
 *    that names a record: `orderNumber`, `sbpOperationNumber`, `invoice_no`, but no card, phone
 *    or account number: NOT_ID_NUMBER_WORDS) is an
 *    identifier, and of an amount (`*Amount`, `balance`, `fee`, `*Usdt`) an amount: never changed;
 * 4. a name of a time or a count (`createdAtUs`, `ledgerSeq`, `timestamp`: timeOrCountName) is a
 *    time, kept exactly; a name of a link (`url`, `inviteLink`) is a record's own link, a name
 *    ending in `url`/`link` a link it points at; a requisite or phone a requisite;
 * 5. anything else is `unknown`: searched for secrets by pattern and by the values this run's
 *    secret fields held, like free text.
 */
export function unknownFieldKind(name: string): FieldSpec {
	const spec = nameKind(name);
	if (spec.kind !== 'secret' || spec.valueRule) return spec;
	const words = secretReadWords(nameWords(name));
	const last = words[words.length - 1] ?? '';
	return words.length > 1 && PART_WORDS.has(last) ? { ...spec, valueRule: 'short' } : spec;
}

/**
 * Short names that may hold a key (outside read r18-data, finding 5: `pk`, `sk`, `sid`, `priv`):
 * a secret when the value is long key material (keyMaterial), else shown (`sid: "S1"`, `pk: 42`).
 */
const SHORT_KEY_NAMES = new Set(['pk', 'sk', 'sid', 'priv']);
/** Last words of a name for a shown part of a secret (`apiKeyPrefix`, `tokenMask`). */
const PART_WORDS = new Set(['prefix', 'mask']);
/** The most characters of a secret a part's name (`apiKeyPrefix: "ak_"`) may show. */
export const SHOWN_PART_LENGTH = 4;
/**
 * Words that say how a secret stands, never a secret's value (outside read r18-data, finding 6:
 * `signature: "ok"`); contract/choices.ts `unknownFields`.
 */
const STATUS_VALUES = new Set([
	'ok',
	'valid',
	'invalid',
	'true',
	'false',
	'none',
	'null',
	'yes',
	'no',
	'verified',
	'unverified',
	'failed',
	'passed',
	'missing',
	'unset',
	'empty',
	'expired',
	'revoked',
	'n/a',
]);
/**
 * Long key material: 32 hex digits or more, or 24 characters or more of base64 or letters and
 * digits with a digit among them (`sk: "a3f1…"`).
 */
export function keyMaterial(text: string): boolean {
	const value = text.trim();
	if (/^(?:0x)?[0-9a-f]{32,}$/i.test(value)) return true;
	return /^[A-Za-z0-9+/_-]{24,}={0,2}$/.test(value) && /\d/.test(value);
}
/**
 * Whether a value under a secret's name cannot be a secret and is shown as sent (outside read
 * r18-data, findings 5 and 6): a word of how it stands (`ok`, `valid`, `false`: STATUS_VALUES), a
 * part of at most SHOWN_PART_LENGTH characters under a part's name (`apiKeyPrefix: "ak"`), or
 * anything but long key material under a short name (`sid: "S1"`). Long material stays hidden.
 */
export function secretValueShown(spec: FieldSpec, text: string): boolean {
	if (spec.kind !== 'secret' || spec.secret === 'cvv' || spec.secret === 'cardNumber') {
		return false;
	}
	const value = text.trim();
	if (STATUS_VALUES.has(value.toLowerCase())) return true;
	if (spec.valueRule === 'short') return value.length <= SHOWN_PART_LENGTH;
	if (spec.valueRule === 'material') return !keyMaterial(value);
	return false;
}

function nameKind(name: string): FieldSpec {
	const words = secretReadWords(nameWords(name));
	const joined = words.join('');
	const last = words[words.length - 1] ?? '';
	// A PIN named in Russian (`пин`, `ПИН-код`, `пинКод`): its letters are no word of nameWords.
	const russianPin = /(?<!\p{L})пин(?:[-_ ]?код)?(?!\p{Ll})/iu.test(name);
	if (joined === '') return russianPin ? { kind: 'secret', secret: 'key' } : { kind: 'unknown' };
	if (SHORT_KEY_NAMES.has(joined)) return { kind: 'secret', secret: 'key', valueRule: 'material' };
	// A secret's value named after its name (`pinValue`, `sessionTokenValue`): the secret.
	if (VALUE_WORDS.has(last) && words.length > 1) {
		const inner = unknownFieldKind(words.slice(0, -1).join('_'));
		if (inner.kind === 'secret') return inner;
	}
	// It says something about a secret (its type, whether one is set, how many tries are left):
	// by its last word (`apiKeyType`, `pinSet`) or a counting word anywhere (`pinTriesLeft`,
	// `remainingPinAttempts`; outside read r16-data, finding 1). One rule for every secret's name.
	const about =
		words.length > 1 &&
		(ABOUT_WORDS.has(last) ||
			FLAG_FIRST_WORDS.has(words[0]) ||
			words.some((word) => COUNTER_WORDS.has(word)));
	// A CVV by any of its names (outside read r11-data, finding 2): `cvv2`, `cardSecurityCode`,
	// `cardVerificationValue`, `csc`, `cvn`, `cvd`.
	if (
		/cvv|cvc|securitycode|securitynumber|verificationvalue|verificationcode/.test(joined) ||
		words.some((word) => CVV_WORDS.has(word))
	) {
		return about ? { kind: 'state' } : { kind: 'secret', secret: 'cvv' };
	}
	// Magnetic stripe data (`track1`, `track2`, `track_2_data`, `trackData`, `track2Equivalent`,
	// `magStripe`): the card number with its expiry, service code and discretionary data, hidden
	// whole (issue 50, fixer dfix23: masking only the card number left the rest). `hasTrack2`: a state.
	if (
		words.some(
			(word, index) =>
				/^track[123]$/.test(word) ||
				(word === 'track' && /^(?:[123]|data|equivalent)$/.test(words[index + 1] ?? '')),
		) ||
		/magstripe|magneticstripe/.test(joined)
	) {
		return about ? { kind: 'state' } : { kind: 'secret', secret: 'key' };
	}
	// A PIN under any name that has `pin` as a word of its own (`pinCode`, `card_pin`, `atmPin`,
	// glued `pincode`, `PIN2`, `tpin`); a word that only contains the letters (`shipping`, `pinned`,
	// `spinner`) is not one. So is a code a person types (`smsCode`, `cardCode`: SECRET_CODE_WORDS),
	// a password's short name (`pwd`) and a wallet's seed (`seed`, `walletSeed`).
	const pinNamed =
		words.some((word) => PIN_WORDS.has(word)) ||
		russianPin ||
		(last === 'code' && SECRET_CODE_WORDS.has(words[words.length - 2] ?? '')) ||
		words.includes('pwd') ||
		(last === 'seed' && (words.length === 1 || SEED_WORDS.has(words[words.length - 2])));
	const secretNamed =
		pinNamed || SECRET_NAMES.has(joined) || secretPart(joined) || words.includes('token');
	if (about && secretNamed) return { kind: 'state' };
	if (!about) {
		// A card number also by the card's abbreviations: `ccNumber`, `cc_no`, `ccNum`, `panNumber`.
		if (
			/cardnumber|^pan$|fullpan|cardpan|^pan(full)?$/.test(joined) ||
			(words.some((word) => CARD_ABBREVIATIONS.has(word)) && NUMBER_WORDS.has(last))
		) {
			return { kind: 'secret', secret: 'cardNumber' };
		}
		if (joined.endsWith('webhooksecret') || joined === 'secret' || joined === 'signingsecret') {
			return { kind: 'secret', secret: 'webhookSecret' };
		}
		if (pinNamed || SECRET_NAMES.has(joined) || secretPart(joined)) {
			// An ID of a secret (`apiKeyId`) names it and is not one; a session's ID is the session.
			const namesOne = ['id', 'ids', 'uuid'].includes(last) && joined !== 'sessionid';
			// The bare name `key` is key-ish (a lookup key may stand under it), as `…Key` is below.
			if (!namesOne) return { kind: 'secret', secret: 'key', codeKept: joined === 'key' };
		}
		if (last === 'token' || last === 'tokens') {
			return { kind: 'secret', secret: 'token', codeKept: true };
		}
		if (last === 'key' || last === 'keys' || last === 'secrets') {
			const before = words.slice(0, -1).filter((word) => !KEY_MODIFIERS.has(word));
			// A credential's key (`memberKey`, `signingKey`): a secret. A record's or a lookup's
			// (`orderKey`, `periodKey`, `sortKey`): none (outside read r16-data, finding 8). Any
			// other (`widgetKey`): key-ish, masked unless its value cannot be a secret (a code, a
			// date, a time, a record's ID: gate/masks.ts notSecretMaterial).
			const credential = before.some((word) => CREDENTIAL_KEY_WORDS.has(word));
			const record = before.some(
				(word) => NON_SECRET_KEY_WORDS.has(word) || RECORD_KEY_WORDS.has(word),
			);
			if (credential || !record) {
				return { kind: 'secret', secret: 'key', codeKept: last !== 'secrets' };
			}
		}
	}
	// A card's reference or hash (`cardRef`, `panHash`) may be the card number itself: read as an
	// unknown field (a card number masked, anything else shown); a card's ID stays an ID.
	if (['ref', 'reference', 'hash'].includes(last) && words.some((w) => CARD_NAME_WORDS.has(w))) {
		return { kind: 'unknown', numberName: 'card' };
	}
	if (ID_WORDS.has(last) || joined === 'externalid') return { kind: 'identifier' };
	if (
		NUMBER_WORDS.has(last) &&
		words.length > 1 &&
		!words.some((word) => NOT_ID_NUMBER_WORDS.has(word))
	) {
		return { kind: 'identifier' };
	}
	if (AMOUNT_WORDS.has(last)) return { kind: 'amount' };
	const timeName = timeOrCountName(words);
	if (timeName) return { kind: 'time', timeName };
	if (OWN_LINK_NAMES.has(joined)) return { kind: 'link', ownLink: true };
	if (last === 'url' || last === 'uri' || last === 'link' || last === 'href')
		return { kind: 'link' };
	if (last === 'requisite' || words.includes('phone')) return { kind: 'requisite' };
	if (TEXT_NAMES.has(joined) || TEXT_NAMES.has(last)) return { kind: 'text' };
	if (words.some((word) => CARD_NAME_WORDS.has(word)))
		return { kind: 'unknown', numberName: 'card' };
	const registries = words.filter((word) => REGISTRY_NAME_WORDS.has(word));
	if (registries.length > 0) {
		const named = registries.flatMap((word) => registriesIn(word) ?? []);
		return { kind: 'unknown', numberName: 'registry', registries: [...new Set(named)] };
	}
	return { kind: 'unknown' };
}

/**
 * The lengths of each registry's or account's number (outside read r18-data, finding 7): a word
 * of a registry before a number (`ИНН 7707083893`), a field named for one (`payeeInn`, `kpp`) or a
 * payment code's field of one (`PersonalAcc=…`) says the number is no card only when it has one of
 * its registry's lengths; a number of any other length that fits a card scheme and passes the
 * card checksum stays a card (`Списано со счёта 4276…` of 16 digits is a card, a Russian account
 * has 20). One table for texts (gate/patterns.ts REGISTRY_WORD), payment-code fields and names;
 * contract/choices.ts `cardSchemes`.
 */
export const REGISTRY_LENGTHS = {
	inn: [10, 12],
	kpp: [9],
	bic: [9],
	ogrn: [13],
	ogrnip: [15],
	snils: [11],
	okpo: [8, 10, 14],
	oktmo: [8, 11],
	okato: [2, 5, 8, 11],
	account: [20],
	kbk: [20],
	uin: [20, 25],
} as const satisfies Record<string, readonly number[]>;
export type Registry = keyof typeof REGISTRY_LENGTHS;

/** Each registry's spellings: words of a text and of a name, payment-code fields (lower case). */
const REGISTRY_SPELLINGS: ReadonlyMap<string, Registry> = new Map<string, Registry>([
	['инн', 'inn'],
	['inn', 'inn'],
	['payeeinn', 'inn'],
	['payerinn', 'inn'],
	['кпп', 'kpp'],
	['kpp', 'kpp'],
	['бик', 'bic'],
	['bic', 'bic'],
	['bik', 'bic'],
	['огрн', 'ogrn'],
	['ogrn', 'ogrn'],
	['огрнип', 'ogrnip'],
	['ogrnip', 'ogrnip'],
	['снилс', 'snils'],
	['snils', 'snils'],
	['окпо', 'okpo'],
	['okpo', 'okpo'],
	['октмо', 'oktmo'],
	['oktmo', 'oktmo'],
	['окато', 'okato'],
	['okato', 'okato'],
	['р/с', 'account'],
	['к/с', 'account'],
	['л/с', 'account'],
	['personalacc', 'account'],
	['personalaccount', 'account'],
	['correspacc', 'account'],
	['persacc', 'account'],
	['cbc', 'kbk'],
	['kbk', 'kbk'],
	['uin', 'uin'],
]);

/** The registry a word or a name spells (`ИНН`, `счёта`, `лицевого счёта`, `PayeeINN`), if any. */
export function registryOf(word: string): Registry | undefined {
	const lower = word.toLowerCase().replace(/\s+/g, ' ').trim();
	if (/(?:^|\s)сч[её]т/u.test(lower)) return 'account';
	return (
		REGISTRY_SPELLINGS.get(lower) ?? REGISTRY_SPELLINGS.get(lower.replace(/[^a-zа-яё/]/gu, ''))
	);
}

/** The registries a word spells (`ИНН/КПП`: inn and kpp), if it spells any. */
export function registriesIn(words: string): readonly Registry[] | undefined {
	const whole = registryOf(words);
	if (whole) return [whole];
	const parts = words.split(/\s*\/\s*/).map(registryOf);
	if (parts.length < 2 || parts.some((part) => part === undefined)) return undefined;
	return parts as Registry[];
}

/** `digits` read as one number, modulo `divisor`, digit by digit (no precision is lost). */
function modulo(digits: string, divisor: number): number {
	let rest = 0;
	for (let index = 0; index < digits.length; index++) {
		rest = (rest * 10 + digits.charCodeAt(index) - 48) % divisor;
	}
	return rest;
}

/** Σ digit × weight over `digits`, modulo 11, modulo 10: an INN's check digit. */
function innDigit(digits: string, weights: readonly number[]): number {
	let sum = 0;
	for (let index = 0; index < weights.length; index++) {
		sum += (digits.charCodeAt(index) - 48) * weights[index];
	}
	return (sum % 11) % 10;
}
const INN_10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

/**
 * The control number of a code of the all-Russian classifiers (OKPO): each digit weighted 1 to 10
 * by its place (repeating after 10), the sum modulo 11; a rest of 10 is computed again with the
 * weights moved on by 2, and a rest of 10 again gives 0.
 */
function classifierDigit(body: string): number {
	const weighted = (shift: number) => {
		let sum = 0;
		for (let index = 0; index < body.length; index++) {
			sum += (body.charCodeAt(index) - 48) * (((index + shift) % 10) + 1);
		}
		return sum % 11;
	};
	const first = weighted(0);
	if (first !== 10) return first;
	const second = weighted(2);
	return second === 10 ? 0 : second;
}

/**
 * The last year an OGRN or OGRNIP's digits 2–3 may name (2002 and 2004 are the first): a 13- or
 * 15-digit card of a scheme (an American Express 34… or 37…, a Diners Club 36…, a Maestro 56…–69…)
 * names a year from 2040 on, so none reads as a registry number.
 */
const LAST_REGISTRY_YEAR = 39;

/**
 * Whether `digits` is a number of `registry` by its own rules (issue 50, fixer dfix23): of one of
 * its lengths (REGISTRY_LENGTHS) and, where the registry has a check, passing it: an OGRN's sign
 * (1 or 5), year (02–39: LAST_REGISTRY_YEAR) and check digit (the first 12 digits modulo 11,
 * modulo 10); an OGRNIP's sign (3), year (04–39) and check digit (the first 14 modulo 13, modulo
 * 10); an INN's check digits; an OKPO's control number (classifierDigit). A number of the
 * registry's length that fails its check is no number of that registry, and is a card when a
 * scheme issues it and it passes the card checksum (`ОГРН 4276…` of 13 digits is a Visa).
 * The other registries (KPP, BIC, SNILS, OKTMO, OKATO, accounts, KBK, UIN) go by length: no card
 * has theirs, or their check needs more than the number.
 */
export function registryNumber(registry: Registry, digits: string): boolean {
	if (!(REGISTRY_LENGTHS[registry] as readonly number[]).includes(digits.length)) return false;
	const digit = (index: number) => digits.charCodeAt(index) - 48;
	const year = digit(1) * 10 + digit(2);
	switch (registry) {
		case 'ogrn':
			return (
				(digit(0) === 1 || digit(0) === 5) &&
				year >= 2 &&
				year <= LAST_REGISTRY_YEAR &&
				modulo(digits.slice(0, 12), 11) % 10 === digit(12)
			);
		case 'ogrnip':
			return (
				digit(0) === 3 &&
				year >= 4 &&
				year <= LAST_REGISTRY_YEAR &&
				modulo(digits.slice(0, 14), 13) % 10 === digit(14)
			);
		case 'inn':
			return digits.length === 10
				? innDigit(digits, INN_10) === digit(9)
				: innDigit(digits, INN_11) === digit(10) && innDigit(digits, INN_12) === digit(11);
		case 'okpo':
			return classifierDigit(digits.slice(0, -1)) === digit(digits.length - 1);
		default:
			return true;
	}
}

/** Whether `digits` is a number of one of `registries` (registryNumber). */
export function numberOfRegistries(registries: readonly Registry[], digits: string): boolean {
	return registries.some((registry) => registryNumber(registry, digits));
}

/**
 * Words of a name that say its number is a state registry's (outside read r17-data, finding 4:
 * `payeeOgrn`, `inn`, `kpp`, `bic`): no card number by its look when it has its registry's length
 * (REGISTRY_LENGTHS; contract/choices.ts `cardSchemes`).
 */
const REGISTRY_NAME_WORDS = new Set([
	'ogrn',
	'ogrnip',
	'inn',
	'kpp',
	'bic',
	'bik',
	'okpo',
	'oktmo',
	'okato',
	'snils',
]);

/** The kind of a field by its name: the model's where it shows the name, else the unknown rule. */
export function fieldSpec(name: string): FieldSpec {
	return BY_NAME.get(name) ?? unknownFieldKind(name);
}

/**
 * Fields only an on-chain record has (a company or user-wallet deposit, a deposit event): its
 * transaction, the wallet it came to, the token's symbol. An invite (whose `token` is a secret)
 * has none of them.
 */
const ON_CHAIN_FIELDS = [
	'txHash',
	'depositId',
	'walletAddress',
	'fromAddress',
	'sweepTxHash',
	'tokenSymbol',
];

/**
 * Names of a wallet's or a deposit's address (GET /wallets, a user wallet, a deposit whose fields
 * the document does not show: outside read r14-data, finding 3).
 */
const ADDRESS_FIELDS = ['address', 'depositAddress', 'tronAddress', 'toAddress', 'from', 'to'];
/** Fields that say a record with an address is about a chain: its network, standard, hash. */
const CHAIN_FIELDS = ['network', 'chain', 'blockchain', 'standard', 'hash', 'txid', 'txId'];
/** A token's code (`USDT`, `usdt`, `USDT-TRC20`). */
const TOKEN_CODE = /^[A-Za-z][A-Za-z0-9]{1,9}(?:[-_][A-Za-z0-9]{2,10})?$/;
/** A chain address: TRON's (base58, `T` and 33 more) or an EVM chain's (`0x` and 40 hex digits). */
const CHAIN_ADDRESS = /^(?:T[1-9A-HJ-NP-Za-km-z]{33}|0x[0-9a-fA-F]{40})$/;
/** Whether a value is a public chain address (TRON base58 `T` + 33, EVM `0x` + 40 hex digits). */
export function chainAddress(value: string): boolean {
	return CHAIN_ADDRESS.test(value);
}

/**
 * A deposit or a wallet: a record with a field of ON_CHAIN_FIELDS, an event `deposit.*`, or an
 * address (ADDRESS_FIELDS) that is a chain address or stands beside a chain's field
 * (CHAIN_FIELDS). A login's or an invite's answer (a session token, an invite token) has none.
 */
export function onChainRecord(record: object | undefined): boolean {
	if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
	const fields = record as Record<string, unknown>;
	const has = (name: string) => Object.prototype.hasOwnProperty.call(fields, name);
	if (typeof fields.event === 'string' && /^(?:user_wallet\.)?deposits?\./.test(fields.event)) {
		return true;
	}
	if (ON_CHAIN_FIELDS.some(has)) return true;
	const addresses = ADDRESS_FIELDS.filter(has);
	if (addresses.length === 0) return false;
	if (CHAIN_FIELDS.some(has)) return true;
	return addresses.some((name) => {
		const value = fields[name];
		return typeof value === 'string' && CHAIN_ADDRESS.test(value.trim());
	});
}

/**
 * Whether a link's query parameter is a crypto token the run knows (a `tron:` payment link's
 * `?token=TR7N…`, outside read r14-data, finding 3): its name is one of a token's contract, its
 * value a chain address or a token's code, and a deposit or a wallet of the same answer showed it as its token
 * (`identifiers`, where the gate keeps what CRYPTO_TOKEN fields hold).
 */
export function knownCryptoToken(
	name: string,
	value: string,
	identifiers: ReadonlySet<string> | undefined,
): boolean {
	return (
		TOKEN_CONTRACT_NAMES.has(name.toLowerCase().replace(/[^a-z]/g, '')) &&
		(CHAIN_ADDRESS.test(value) || TOKEN_CODE.test(value)) &&
		identifiers?.has(value) === true
	);
}

/** Names of a token's contract in a deposit or a wallet: the crypto token, whatever they hold. */
const TOKEN_CONTRACT_NAMES = new Set([
	'token',
	'tokens',
	'contract',
	'tokencontract',
	'contractaddress',
	'tokenaddress',
	'tokencontractaddress',
]);

/**
 * A deposit's `token` (the document does not show one; contract/choices.ts `depositToken`): the
 * crypto token the deposit moved, a code (`USDT`) or its contract's address
 * (`TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`), public whatever its shape (outside read r13-data,
 * finding 2): a state, never masked as a secret nor learned as one, and known to the run as an
 * identifier is (never taken for a secret by its look: `"token":"TR7N…"` in the raw body).
 */
export const CRYPTO_TOKEN: FieldSpec = { kind: 'state' };

/**
 * The kind of a field of this record: by its name (fieldSpec), but a deposit's or a wallet's
 * `token` (and `tokenContract`, `contractAddress`): the crypto token (choice `depositToken`).
 */
export function fieldSpecIn(record: object | undefined, name: string): FieldSpec {
	if (TOKEN_CONTRACT_NAMES.has(nameWords(name).join('')) && onChainRecord(record)) {
		return CRYPTO_TOKEN;
	}
	return fieldSpec(name);
}

/* ------------------------------------------------------------ records closed by default */

/**
 * The records the document says carry secrets or card data (issue 50): a member and its own API
 * key, a card's sensitive data, the company profile (its webhook secret, and the answers of the
 * company calls that hand out a new key or session), an invite (its token). The document shows
 * few of their fields, and a service may add any: a `memberKey`, a `keys[].value`, a `cardPin`.
 * In these records a field is shown only when it is declared here (then by its kind, as
 * everywhere); any other field is masked like a secret, whatever it holds, until it is declared.
 * Fields the document shows are declared, and the plain ones the stand-in service and real
 * answers carry beside them (an e-mail, a name, times); `nested` names the closed record a field
 * holds (an accepted invite's `member`).
 */
export type ClosedName =
	| 'member'
	| 'invite'
	| 'companyIdentity'
	| 'companyProfile'
	| 'cardSensitiveData';

export interface ClosedRecord {
	fields: ReadonlySet<string>;
	nested: Readonly<Record<string, ClosedName>>;
}

const PLAIN_PERSON = ['email', 'name', 'firstName', 'lastName', 'createdAt', 'updatedAt'];

export const CLOSED_RECORDS: Record<ClosedName, ClosedRecord> = {
	member: {
		fields: new Set([
			...PLAIN_PERSON,
			'userId',
			'role',
			'permissions',
			'apiKey',
			// Which of the document's two kinds of key (a legacy company-wide key, a member key).
			'apiKeyType',
			'status',
			'removedAt',
			'companyId',
			'ok',
		]),
		// A member quoted in an error's details (`details.member`, `details.members[]`).
		nested: { member: 'member', members: 'member' },
	},
	invite: {
		fields: new Set([
			...PLAIN_PERSON,
			'id',
			'url',
			'status',
			'role',
			'permissions',
			'token',
			'expiresAt',
			'acceptedAt',
			'companyId',
			'companyName',
			'revoked',
			'inviteId',
			// Accept: the new member's key and session.
			'apiKey',
			'session',
			'sessionToken',
		]),
		nested: { member: 'member', company: 'companyIdentity' },
	},
	companyIdentity: { fields: new Set(['id', 'name']), nested: {} },
	companyProfile: {
		fields: new Set([
			...PLAIN_PERSON,
			'id',
			'webhookUrl',
			'webhookSecret',
			'cardsTestMode',
			// Login and Regenerate API Key: the new key (and a session), named as NEW_API_KEY_FIELDS.
			'apiKey',
			'newApiKey',
			'api_key',
			'key',
			'token',
			'companyId',
		]),
		nested: { company: 'companyProfile', member: 'member' },
	},
	cardSensitiveData: {
		fields: new Set(['cardId', 'cardNumberFull', 'cardCvv', 'expiry']),
		nested: {},
	},
};

/** The closed record an operation of the action node outputs, if it outputs one. */
export function closedRecordFor(resource: unknown, operation: unknown): ClosedName | undefined {
	if (resource === 'member') return 'member';
	if (resource === 'invite') return 'invite';
	if (resource === 'company') return 'companyProfile';
	if (resource === 'card' && operation === 'getSensitiveData') return 'cardSensitiveData';
	return undefined;
}

/**
 * Whether a field of a closed record is declared: by the record, as one of the package's own,
 * or as a field the document names anywhere with a kind that is no secret (outside read r16-data,
 * finding 7: a profile's `usdtBalance`, `cardOpeningFeeUsdt`, a `role`, `permissions`, an answer's
 * `message`). Such a field is then read by its kind, as everywhere: an amount exact, a text
 * searched. A name the document gives a secret (`apiKey`, `token`) is declared only where the
 * record declares it, and a name it does not show stays closed.
 */
export function declaredIn(closed: ClosedName, name: string): boolean {
	const record = CLOSED_RECORDS[closed];
	return (
		record.fields.has(name) ||
		Object.prototype.hasOwnProperty.call(record.nested, name) ||
		RECORD_ENVELOPE_KEYS.has(name) ||
		CLOSED_PACKAGE_FIELDS.has(name) ||
		DOCUMENTED_PLAIN.has(name)
	);
}

/**
 * The closed record a field of a closed record holds, if any: its own `nested`, else an envelope
 * (RECORD_ENVELOPE_KEYS) holds the same record (`{"data":{cardId, cardNumberFull, …}}`).
 */
export function nestedIn(closed: ClosedName, name: string): ClosedName | undefined {
	const { nested } = CLOSED_RECORDS[closed];
	if (Object.prototype.hasOwnProperty.call(nested, name)) return nested[name];
	return RECORD_ENVELOPE_KEYS.has(name) ? closed : undefined;
}

/**
 * The keys under which a service may wrap the one record it answers (`{"data":{…}}`; contract
 * /choices.ts `recordEnvelope`): in a closed record, an object under one is that same record,
 * read by its declarations. The operations find the field they open there too
 * (contract/recordsAnswer.ts fieldPath).
 */
export const RECORD_ENVELOPE_KEYS: ReadonlySet<string> = new Set(['data']);

/**
 * The names the document gives a field of a record or a webhook payload, with a kind that holds
 * no secret and is a value (not `unknown`, not a secret): declared in every closed record.
 */
const DOCUMENTED_PLAIN: ReadonlySet<string> = new Set(
	(
		[...Object.values(RECORDS), ...Object.values(EVENT_PAYLOADS)] as Array<
			Record<string, FieldSpec>
		>
	)
		.flatMap((fields) => Object.entries(fields))
		.filter(([, spec]) => spec.kind !== 'secret' && spec.kind !== 'unknown')
		.map(([name]) => name),
);

/** Last words of a time's name in a closed record: `rotatedAt`, `previousKeyValidUntil`. */
const CLOSED_TIME_WORDS = new Set([
	'at',
	'until',
	'since',
	'time',
	'date',
	'datetime',
	'timestamp',
]);
/** A date or a date-time as ISO 8601 / RFC 3339 write it: `2026-11-29`, `2026-11-29T08:00:00.000+03:00`. */
const DATE_TIME =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * A field of a closed record the document does not show that is plainly a time (contract
 * /choices.ts `unknownFields`): its name ends in a word of a time (`webhookSecretSetAt`,
 * `rotatedAt`, `previousKeyValidUntil`) with no word of a card, and its value is a date or a
 * date-time written as ISO 8601 writes it, or null. Shown as it is: such a value holds no secret.
 * Anything else under such a name (a key, a number) stays closed.
 */
export function plainTimeIn(name: string, value: unknown): boolean {
	const words = nameWords(name);
	if (!CLOSED_TIME_WORDS.has(words[words.length - 1] ?? '')) return false;
	if (words.some((word) => CARD_NAME_WORDS.has(word))) return false;
	return value === null || (typeof value === 'string' && DATE_TIME.test(value.trim()));
}

/**
 * Words of a name that may name a secret or card data (outside read r17-data, finding 7): a field
 * of a closed record the record does not declare is shown only when its name has none, or ends
 * in a word that describes (CLOSED_PLAIN_LAST_WORDS: `keyId`, `keyType`, `pinAttemptsLeft`). Only
 * for that rule: the name rules above (unknownFieldKind) are not changed by it.
 */
const CLOSED_SECRET_WORDS = new Set([
	'pin',
	'pins',
	'csc',
	'cvn',
	'cvd',
	'key',
	'keys',
	'token',
	'tokens',
	'secret',
	'secrets',
	'pass',
	'pwd',
	'otp',
	'totp',
	'hotp',
	'code',
	'codes',
	'sig',
	'signature',
	'signatures',
	'hmac',
	'salt',
	'seed',
	'mnemonic',
	'phrase',
	'creds',
	'auth',
	'authorization',
	'session',
	'sessions',
	'cookie',
	'cookies',
	'pan',
	'pans',
	'card',
	'cards',
	'cc',
	'private',
	'bearer',
	'jwt',
	'recovery',
	'backup',
	'verifier',
	'challenge',
	'security',
	'answer',
	'login',
	'cipher',
	'encrypted',
	// Key material and card data by other names (`signingMaterial`, `accessMaterial`, `track2`,
	// `magicValue`, `status.grant`).
	'signing',
	'access',
	'material',
	'track',
	'track1',
	'track2',
	'magic',
	'grant',
	'vault',
]);
/** Joined words that name a secret wherever they stand in a name (`apikey`, `passwordHash`). */
const CLOSED_SECRET_PARTS =
	/passw|passphrase|passcode|apikey|privatekey|secretkey|accesskey|secret(?!ar)|mnemonic|credential|cookie|bearer|jwt|hmac|cvv|cvc|pinblock|pincode|token/;
/**
 * Last words that make a name with a secret's word describe it rather than hold it: an ID, a
 * type, a time, a count, a limit, an amount, a plan, a position (`keyId`, `keyType`, `pinLimit`).
 */
const CLOSED_PLAIN_LAST_WORDS = new Set([
	'id',
	'ids',
	'uuid',
	'uid',
	'guid',
	'by',
	'ref',
	'type',
	'kind',
	'name',
	'label',
	'title',
	'status',
	'state',
	'at',
	'date',
	'time',
	'until',
	'since',
	'count',
	'length',
	'set',
	'enabled',
	'disabled',
	'version',
	'scope',
	'scopes',
	'permissions',
	'expires',
	'expiry',
	'hint',
	'last4',
	'masked',
	'changed',
	'created',
	'updated',
	'rotated',
	'revoked',
	'valid',
	'active',
	'expired',
	'amount',
	'limit',
	'limits',
	'fee',
	'fees',
	'percent',
	'pct',
	'rate',
	'plan',
	'timezone',
	'tz',
	'position',
	'role',
	'currency',
	'country',
	'locale',
	'language',
	'attempts',
	'tries',
	'left',
	'remaining',
	'retries',
	'format',
]);
/** Last words of a name whose value may be a record's ID in UUID form (`invitedBy`, `keyId`). */
const CLOSED_ID_LAST_WORDS = new Set(['id', 'uuid', 'uid', 'guid', 'by', 'ref']);

/**
 * How a closed record's undeclared field is named (contract/choices.ts `unknownFields`): `secret`
 * when a word of its name may name a secret or card data and no describing last word follows
 * (then it stays hidden whatever it holds); `describes` when such a word is there but a
 * describing last word makes it plain (`keyId`: a short run of digits under it may still be a
 * PIN); `plain` when no such word is there. `id` says its value may be a UUID the record names.
 */
export function closedFieldName(name: string): {
	name: 'secret' | 'describes' | 'plain';
	id: boolean;
} {
	const words = nameWords(name);
	const last = words[words.length - 1] ?? '';
	const id = CLOSED_ID_LAST_WORDS.has(last);
	if (words.length === 0) return { name: 'secret', id };
	const spec = unknownFieldKind(name);
	if (spec.kind === 'secret' || spec.kind === 'requisite' || spec.numberName === 'card') {
		return { name: 'secret', id };
	}
	const secretish =
		words.some((word) => CLOSED_SECRET_WORDS.has(word)) || CLOSED_SECRET_PARTS.test(words.join(''));
	if (!secretish) return { name: 'plain', id };
	return { name: CLOSED_PLAIN_LAST_WORDS.has(last) ? 'describes' : 'secret', id };
}

/**
 * The package's own fields an operation with a closed record adds to it (a new key's notice, a
 * removal's `deleted`, Mask Card Number's `masked`). Its other fields (`description`, `source`,
 * `changeKey`, `hint`, `idempotencyKey`, `paymentReference`) are never added there: in a closed
 * record such a name is the service's, undeclared, and masked.
 */
const CLOSED_PACKAGE_FIELDS: ReadonlySet<string> = new Set([
	'notice',
	'apiKeyField',
	'deleted',
	'masked',
]);
