import { fieldSpec } from '../contract/records';
import type { FieldSpec } from '../contract/records';

/*
 * The pair rule: a value named by a member beside it, as headers, attributes and validation
 * errors are sent. One rule for every door (gate/fields.ts masks with it, gate/learned.ts learns
 * with it), so an error body, its copy in an error's context, the Continue On Fail item, a tool
 * result and a log line all read a pair the same way.
 *
 * - `{"name":"pin","value":"4821"}`, `{"attribute":"cvv","value":"812"}` (outside read r14-data,
 *   finding 1; r16-data, finding 9);
 * - validation entries of common frameworks (outside read r21-data, finding 1): Spring
 *   `{"field":"cvv","rejectedValue":"737"}`, pydantic `{"loc":["body","card","pin"],"input":…}`,
 *   ajv `{"instancePath":"/card/cvv","data":…}`, Zod `{"path":["card","cvv"],"input":…}`,
 *   Symfony `{"propertyPath":"card.cvv","invalidValue":…}`;
 * - a list of two whose first entry is a name (`["cardPin","7390"]`).
 *
 * The naming member may be a field's name, a JSON pointer (`/card/cvv`, `~1` and `~0` read), a
 * dotted or bracketed path (`card.cvv`, `cards[0].pin`, `card[cvv]`) or a list of path parts
 * (`["body","card","cvv"]`); list indexes are skipped, and the last part decides (`cvv.maxLength`
 * names a CVV's length, no CVV). Where the last part names no secret, the whole path read as one
 * field's name may (`password.value`). A text with spaces is a message, never a name.
 */

/**
 * Names of a pair's name: what its value is. A field's name as it is (`name`, `field`…) or a path
 * to it (`loc`, `path`, `instancePath`…).
 */
export const PAIR_NAME_KEYS = [
	'name',
	'key',
	'field',
	'fieldName',
	'label',
	'type',
	'id',
	'kind',
	'attribute',
	'attr',
	'attributeName',
	'param',
	'parameter',
	'paramName',
	'property',
	'prop',
	'propertyName',
	'code',
	'title',
	'header',
	'headerName',
	'option',
	'setting',
	'variable',
	'var',
	'slug',
	// Paths (a JSON pointer, a dotted path, or a list of parts).
	'loc',
	'path',
	'instancePath',
	'dataPath',
	'pointer',
	'jsonPointer',
	'fieldPath',
	'propertyPath',
	'location',
];

/** Naming members that hold a path: a list under one is a path's parts, never a pair itself. */
export const PATH_NAME_KEYS = new Set([
	'loc',
	'path',
	'instancePath',
	'dataPath',
	'pointer',
	'jsonPointer',
	'fieldPath',
	'propertyPath',
	'location',
]);

/** Names of a pair's value: what a field held, or what a validator was given. */
export const PAIR_VALUE_KEYS = new Set([
	'value',
	'val',
	'data',
	'text',
	'content',
	'rejectedValue',
	'rejected_value',
	'invalidValue',
	'invalid_value',
	'input',
	'inputValue',
	'received',
	'receivedValue',
	'actual',
	'actualValue',
	'given',
	'givenValue',
	'provided',
	'providedValue',
	'badValue',
	'submittedValue',
	'got',
]);

/** A pair that names a secret: the secret's spec, and (an object) which of its keys names it. */
export interface SecretPair {
	spec: FieldSpec;
	nameKey?: string;
}

/**
 * A field's or a header's name: one word of letters, digits, `_`, `.` or `-` (`cardPin`,
 * `X-API-Key`). A list of two texts (`["password \"Qw3rty!\" is too weak", "…"]`, a message
 * list) is no pair: its first entry is read as the text it is.
 */
function pairName(name: unknown): name is string {
	return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(name);
}

/** A list index among a path's parts (`0`, `"3"`). */
function index(part: unknown): boolean {
	return typeof part === 'number' || (typeof part === 'string' && /^\d+$/.test(part));
}

/** The parts of a path written as one text, or undefined where it is no path (a message). */
function textParts(written: string): string[] | undefined {
	const text = written.trim();
	if (text === '' || text.length > 256 || /\s/.test(text)) return undefined;
	if (text.startsWith('/') || text.startsWith('#/')) {
		// A JSON pointer (RFC 6901), also as a URI fragment.
		return text
			.replace(/^#/, '')
			.split('/')
			.slice(1)
			.map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
	}
	return text.split(/[.[\]]+/).filter((part) => part !== '');
}

/** The parts of a naming member: a path's parts, its indexes left out; undefined if no name. */
function nameParts(named: unknown): string[] | undefined {
	let parts: unknown[] | undefined;
	if (typeof named === 'string') parts = textParts(named);
	else if (Array.isArray(named) && named.length > 0 && named.length <= 32) {
		if (!named.every((part) => typeof part === 'string' || typeof part === 'number')) return;
		parts = named;
	}
	if (!parts) return undefined;
	const names = parts.filter((part) => !index(part)).map(String);
	return names.length > 0 ? names : undefined;
}

/**
 * The secret a naming member names, if any: its last part's, else the whole path's read as one
 * field's name (`card.cvv`, `password.value`).
 */
export function namedSecret(named: unknown): FieldSpec | undefined {
	const parts = nameParts(named);
	if (!parts) return undefined;
	const last = parts[parts.length - 1];
	if (pairName(last)) {
		const spec = fieldSpec(last);
		if (spec.kind === 'secret') return spec;
	}
	if (parts.length === 1) return undefined;
	const whole = parts.join('.');
	if (!pairName(whole)) return undefined;
	const spec = fieldSpec(whole);
	return spec.kind === 'secret' ? spec : undefined;
}

/**
 * Whether `field` of `record` is a path's parts that name its value: a list of texts and indexes
 * under the naming member of a pair (`nameKey`), or under a path's naming member beside a value
 * member (`{"loc": ["body","amount"], "input": …}`). Such parts are names, never a list-of-two
 * pair, and never learned as secrets.
 */
export function namesPath(
	key: string,
	field: unknown,
	record: object,
	nameKey?: string,
): field is (string | number)[] {
	if (!Array.isArray(field)) return false;
	if (!field.every((part) => typeof part === 'string' || typeof part === 'number')) return false;
	if (key === nameKey) return true;
	return PATH_NAME_KEYS.has(key) && Object.keys(record).some((name) => PAIR_VALUE_KEYS.has(name));
}

/**
 * A name/value pair that names a secret: an object with a naming member (any of PAIR_NAME_KEYS)
 * that names a secret field and a value member (any of PAIR_VALUE_KEYS), or a list of two whose
 * first entry is such a name. Its value is read as the named field's; its name is a name, shown
 * as one (gate/fields.ts).
 */
export function secretPair(value: unknown): SecretPair | undefined {
	if (Array.isArray(value)) {
		if (value.length !== 2 || !pairName(value[0])) return undefined;
		const spec = fieldSpec(value[0]);
		return spec.kind === 'secret' ? { spec } : undefined;
	}
	if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
	const record = value as Record<string, unknown>;
	const has = (name: string) => Object.prototype.hasOwnProperty.call(record, name);
	if (![...PAIR_VALUE_KEYS].some(has)) return undefined;
	for (const name of PAIR_NAME_KEYS) {
		if (!has(name)) continue;
		const spec = namedSecret(record[name]);
		if (spec) return { spec, nameKey: name };
	}
	return undefined;
}

/** The spec of the secret a name/value pair names (secretPair), if it names one. */
export function pairSpec(value: unknown): FieldSpec | undefined {
	return secretPair(value)?.spec;
}
