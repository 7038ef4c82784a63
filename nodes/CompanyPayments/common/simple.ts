import type { PACKAGE_FIELDS, RECORDS, RecordName } from '../../shared/contract/records';

/** A field of a record of the contract, or one the package adds to its output. */
export type OutputField<R extends RecordName> =
	| Extract<keyof (typeof RECORDS)[R], string>
	| Extract<keyof typeof PACKAGE_FIELDS, string>;

/**
 * The fields of a simplified record (n8n's Simplify; the tool's "Compact Output", on by default
 * for an AI agent): the ones a person reads. Typed by the contract's record
 * (`nodes/shared/contract/records.ts`), so a field the contract does not declare does not compile.
 */
export function simpleFields<R extends RecordName>(
	_record: R,
	fields: ReadonlyArray<OutputField<R>>,
): string[] {
	return [...fields];
}

/** n8n's limit for a simplified record (its node guidelines: at most 10 fields). */
export const SIMPLE_MAX_FIELDS = 10;

/** A field name as spelled without case, `_` or `-`: `created_at`, `created-at`, `createdAt` agree. */
const spelling = (name: string): string => name.replace(/[_-]/g, '').toLowerCase();

/**
 * A record cut to the fields a person reads (Simplify / Compact Output), never more than
 * SIMPLE_MAX_FIELDS of them. The answers' fields are partly not shown, so a service may name
 * them otherwise:
 * - the listed names found in the record (also spelled in snake_case or kebab-case, kept under the
 *   record's own name), in the list's order;
 * - when fewer than half of the listed names are found, the record is not the one the list was
 *   made for: its own first fields (in its order) fill the rest, so an `id`, a `status` and the
 *   amounts, whatever they are called, are not lost.
 * Only a cut: it runs before the output gate, which masks what it masks in the whole record.
 */
export function compactRecord(
	record: Readonly<Record<string, unknown>>,
	fields: readonly string[],
): Record<string, unknown> {
	const bySpelling = new Map<string, string>();
	for (const key of Object.keys(record)) {
		if (!bySpelling.has(spelling(key))) bySpelling.set(spelling(key), key);
	}
	const keep: string[] = [];
	for (const field of fields) {
		const key = record[field] !== undefined ? field : bySpelling.get(spelling(field));
		if (key !== undefined && record[key] !== undefined && !keep.includes(key)) keep.push(key);
	}
	if (keep.length * 2 < fields.length) {
		for (const key of Object.keys(record)) {
			if (keep.length >= SIMPLE_MAX_FIELDS) break;
			if (record[key] !== undefined && !keep.includes(key)) keep.push(key);
		}
	}
	const out: Record<string, unknown> = {};
	for (const key of keep.slice(0, SIMPLE_MAX_FIELDS)) out[key] = record[key];
	return out;
}
