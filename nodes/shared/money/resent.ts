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
