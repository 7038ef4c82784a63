/*
 * The refusals a money write's own earlier attempt may cause once it was carried out, whatever
 * the operation (r5-money F2). Read only when the item may have been sent before (write.ts
 * mayHaveBeenSent: a key the user set, an External ID a re-run carries, or this process sent it);
 * a first send's refusal stays a refusal. Kept apart from outcome.ts so the money invariants can
 * break the rule on purpose (MONEY_BREAK=resentAny).
 */

/**
 * Refusals any money write's own earlier attempt may cause once it was carried out (r5-money F2):
 * the first attempt reserved or spent the funds. Read as its own when the item may have been sent
 * before (MoneyWrite.mayBeResent): a key the user set, an External ID a re-run carries, or this
 * process sent it.
 */
export const RESENT_BY_ANY: readonly string[] = ['INSUFFICIENT_BALANCE'];

/** The words of a refusal: its message as text, or its messages (a validation list) joined. */
export function refusalWords(message: unknown): string {
	if (typeof message === 'string') return message;
	if (Array.isArray(message)) return message.filter((m) => typeof m === 'string').join('; ');
	return '';
}

/**
 * A refusal saying that something of the request is taken already (r5-money F2): a code naming a
 * duplicate or a taken value (CARD_EXTERNAL_ID_TAKEN, DUPLICATE_EXTERNAL_ID, …), or a message saying
 * a value already exists or is not unique ("externalId already exists" under VALIDATION_ERROR).
 * The document names no such refusal for a payout, so any code or message of the kind is read.
 */
export function refusesTaken(code: unknown, message?: unknown): boolean {
	if (typeof code === 'string' && /DUPLICATE|TAKEN|ALREADY_EXISTS|NOT_UNIQUE/i.test(code)) {
		return true;
	}
	const text = refusalWords(message);
	return (
		/already (exists|used|taken|in use|registered)|duplicate|not unique|must be unique|is taken/i.test(
			text,
		) || /уже (существует|использ|занят)|дублик|не уникальн/i.test(text)
	);
}

/**
 * Refusals no earlier attempt can cause, whatever the operation (outside r7-money-a F1): the
 * credential is not let in, or not allowed to do this.
 */
export const FRESH_BY_ANY: readonly string[] = [
	'UNAUTHORIZED',
	'INVALID_API_KEY',
	'FORBIDDEN',
	'PERMISSION_DENIED',
	'COMPANY_NOT_FOUND',
	'COMPANY_MEMBERSHIP',
	'COMPANY_INACTIVE',
];

/**
 * Whether a refusal of a write that may have been sent before is one an earlier attempt cannot
 * cause (outside r7-money-a F1, F7), so it proves nothing was paid. Word-matching what a refusal
 * of a taken External ID may say cannot be complete (`externalId должен быть уникальным`, `Выплата
 * inv-42 уже есть`, PAYOUT_EXTERNAL_ID_EXISTS…), so the rule is turned round: only these are a
 * refusal of this request alone: HTTP 401 or 403; a code of FRESH_BY_ANY or of the operation's
 * `freshRefusals` (documented refusals of this request's own values); or a validation refusal
 * each of whose messages names a field of this request other than its identity, and none of
 * which names the identity, its value, the key or idempotency. Any other refusal may be about the
 * earlier attempt: unknown.
 */
export function freshRefusal(
	fresh: readonly string[],
	status: number,
	code: unknown,
	message: unknown,
	body: unknown,
	identityField: string | undefined,
): boolean {
	if (status === 401 || status === 403) return true;
	if (typeof code === 'string' && (FRESH_BY_ANY.includes(code) || fresh.includes(code))) {
		return true;
	}
	const fields =
		body !== null && typeof body === 'object' && !Array.isArray(body)
			? Object.keys(body).filter((field) => field !== identityField)
			: [];
	const identityValue =
		identityField && body !== null && typeof body === 'object'
			? (body as Record<string, unknown>)[identityField]
			: undefined;
	const messages = Array.isArray(message)
		? message.filter((m): m is string => typeof m === 'string')
		: typeof message === 'string'
			? [message]
			: [];
	if (messages.length === 0 || fields.length === 0) return false;
	const lower = (text: string) => text.toLowerCase();
	return messages.every((text) => {
		const said = lower(text);
		if (identityField && said.includes(lower(identityField))) return false;
		if (
			typeof identityValue === 'string' &&
			identityValue !== '' &&
			said.includes(lower(identityValue))
		) {
			return false;
		}
		if (/idempot|идемпотент|\bkey\b|ключ/i.test(text)) return false;
		return fields.some((field) => said.includes(lower(field)));
	});
}
