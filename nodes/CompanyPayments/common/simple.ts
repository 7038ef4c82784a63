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
