import { createHash } from 'node:crypto';

/*
 * The one identity function of the package (issue 36). Every key the package derives — an
 * Idempotency-Key, a change key, a delivery's dedup key, an External ID derived from a payment
 * reference — is `identity(kind, scope, parts)`: the kind of thing named, the scope it lives in
 * (company or user wallet, the n8n instance and workflow, the company's credential) and the parts
 * that name one of them. Two different (kind, scope, parts) never give the same key: every part is
 * escaped, so no value can pass for a separator, and the kind and each scope entry stand in their
 * own places. The same (kind, scope, parts), asked by the webhook trigger, the poll trigger or a
 * repeat of the same payment, always gives the same key.
 */

/** What kinds of thing the package names, one word each (they never contain a separator). */
export type IdentityKind =
	| 'order'
	| 'deposit'
	| 'payout'
	| 'card'
	| 'dispute'
	| 'balance'
	| 'pay'
	| 'ref'
	| 'delivery';

/** One part, with `%`, `:` and `/` escaped (and nothing else, so common values stay readable). */
function escapePart(part: string): string {
	return part.replace(/%/g, '%25').replace(/:/g, '%3A').replace(/\//g, '%2F');
}

/** A scope entry: escaped as a part, and `-` itself as `%2D`, since `-` stands for no scope. */
function escapeScopeEntry(entry: string): string {
	return entry === '-' ? '%2D' : escapePart(entry);
}

/**
 * The key of one thing: `<kind>:<scope…>:<part…>`, scope entries joined by `/`, parts by `:`,
 * each escaped. An empty scope reads `-` (so `a:-:b` is never `a::b` with one part moved), and a
 * scope of the one entry `-` reads `%2D` (so it is never the empty scope).
 */
export function identity(
	kind: IdentityKind,
	scope: readonly string[],
	parts: readonly string[],
): string {
	const where = scope.length === 0 ? '-' : scope.map(escapeScopeEntry).join('/');
	return [kind, where, ...parts.map(escapePart)].join(':');
}

/** Printable ASCII without spaces, as the service takes for Idempotency-Key and card External IDs. */
const PRINTABLE = /^[\x21-\x7e]+$/;

/**
 * An identity as a value the service takes (printable ASCII, at most `maxLength` characters, 40
 * or more): itself when it fits, else its kind and scope (where they leave room) followed by
 * `%sha256-` and the SHA-256 of the whole identity (as much of it as fits, at least 128 bits), so
 * distinct identities stay distinct. The `%` marks the hash: identity() writes every `%` of a
 * value as `%25`, so no identity that fits reads like a hashed one.
 */
export function fitted(key: string, maxLength: number): string {
	if (key.length <= maxLength && PRINTABLE.test(key)) return key;
	const digest = createHash('sha256').update(key).digest('hex');
	const head = key.split(':').slice(0, 2).join(':');
	const prefix = PRINTABLE.test(head) && head.length + 73 <= maxLength ? `${head}:` : '';
	// At least 128 bits of the digest; all of it where the limit leaves room.
	return `${prefix}%sha256-${digest.slice(0, Math.max(32, maxLength - prefix.length - 8))}`;
}
