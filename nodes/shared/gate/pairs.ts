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
	// Go Fiber's validation ErrorResponse (`{"FailedField":"CardRequest.Pin","Tag":"len","Value":…}`).
	'failedField',
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
	// FluentValidation and ASP.NET ModelState (`attemptedValue`, `{"AttemptedValue","RawValue"}`).
	'attemptedValue',
	'rawValue',
]);

/**
 * A member's name as the pair rule compares it: without case and separators, so `propertyName`,
 * `property_name`, `PropertyName` and `PROPERTY-NAME` are one name (outside read r22-data,
 * finding 1: .NET and Go write members capitalised).
 */
export function memberName(name: string): string {
	return name.replace(/[\s_-]/g, '').toLowerCase();
}

const NAME_MEMBERS = PAIR_NAME_KEYS.map(memberName);
const PATH_MEMBERS = new Set([...PATH_NAME_KEYS].map(memberName));
const VALUE_MEMBERS = new Set([...PAIR_VALUE_KEYS].map(memberName));

/**
 * A key of a template's parameters that holds the value itself: Symfony's violation
 * `parameters: {"{{ value }}": "\"7391\"", "{{ limit }}": "3"}` (outside read r22-data, finding 1).
 */
export function templateValueKey(name: string): boolean {
	return /^\{\{\s*value\s*\}\}$/i.test(name.trim());
}

/** A map of a template's parameters that holds the value (a `{{ value }}` key). */
export function holdsTemplateValue(field: unknown): field is Record<string, unknown> {
	return (
		typeof field === 'object' &&
		field !== null &&
		!Array.isArray(field) &&
		!Buffer.isBuffer(field) &&
		Object.keys(field).some(templateValueKey)
	);
}

/** Whether a member of a record is a pair's value member (`value`, `AttemptedValue`, `raw_value`). */
export function valueMember(name: string): boolean {
	return VALUE_MEMBERS.has(memberName(name));
}

/** Whether a member of a record is a pair's naming member (`name`, `PropertyName`, `failed_field`). */
export function nameMember(name: string): boolean {
	return NAME_MEMBERS.includes(memberName(name));
}

/** Whether a record has a value: a value member, or a template's parameters holding it. */
function hasValue(record: Record<string, unknown>): boolean {
	return Object.entries(record).some(
		([name, field]) => valueMember(name) || holdsTemplateValue(field),
	);
}

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
	// A dotted or bracketed path, its bracket-quoted parts read without their quotes: JSONPath
	// `$['card']['cvv']`, ajv v6 `.card['pin']` (outside read r22-data, finding 2); `$` is the root.
	const parts: string[] = [];
	for (const match of text.matchAll(/\['([^']*)'\]|\["([^"]*)"\]|[^.[\]]+/g)) {
		parts.push(match[1] ?? match[2] ?? match[0]);
	}
	return parts.filter((part, at) => part !== '' && !(at === 0 && part === '$'));
}

/**
 * A part of a pydantic v2 `loc` after the field's name that names the validator that failed, not
 * a field: `function-after[check_cvv(), str]`, `constrained-str`, `union[int,str]`, `str`
 * (outside read r22-data, finding 2).
 */
function validatorTag(part: string): boolean {
	if (/[^A-Za-z0-9_.-]/.test(part)) return true;
	return /^(?:(?:constrained|strict|lax)-)?(?:str|int|float|bool|bytes|decimal|date|datetime|time|timedelta|uuid|url|list|dict|set|frozenset|tuple|json|none)$|^(?:function-(?:after|before|wrap|plain)|lax-or-strict|json-or-python|tagged-union|is-instance|literal|nullable|default|union|chain)\b/.test(
		part,
	);
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
	// Validator tags after the field's name are left out; a name alone stays (a field `str`).
	while (names.length > 1 && validatorTag(names[names.length - 1])) names.pop();
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
	return PATH_MEMBERS.has(memberName(key)) && hasValue(record as Record<string, unknown>);
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
		// The same field named twice (Spring's `codes: ["cardRequest.cvv","cvv"]`) is a list of
		// names: a value that is its own field's name shows nothing the name does not (outside
		// read r22-data, finding 3).
		if (typeof value[1] === 'string' && sameName(value[0], value[1])) return undefined;
		const spec = fieldSpec(value[0]);
		return spec.kind === 'secret' ? { spec } : undefined;
	}
	if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
	const record = value as Record<string, unknown>;
	if (!hasValue(record)) return undefined;
	// Each naming member in PAIR_NAME_KEYS's order, however the record spells it.
	const names = Object.keys(record)
		.map((name) => ({ name, rank: NAME_MEMBERS.indexOf(memberName(name)) }))
		.filter(({ rank }) => rank >= 0)
		.sort((a, b) => a.rank - b.rank);
	for (const { name } of names) {
		const spec = namedSecret(record[name]);
		if (spec) return { spec, nameKey: name };
	}
	return undefined;
}

/** Whether a list's second entry names the field its first entry's last part names. */
function sameName(first: string, second: string): boolean {
	const a = nameParts(first);
	const b = nameParts(second);
	if (!a || !b) return false;
	return memberName(a[a.length - 1]) === memberName(b[b.length - 1]);
}

/** The spec of the secret a name/value pair names (secretPair), if it names one. */
export function pairSpec(value: unknown): FieldSpec | undefined {
	return secretPair(value)?.spec;
}

/** Members that say a record is a validation entry: its message, the rule that failed. */
const MESSAGE_MEMBERS = new Set(
	[
		'message',
		'msg',
		'errorMessage',
		'defaultMessage',
		'error',
		'errors',
		'reason',
		'hint',
		'rule',
		'constraint',
	].map(memberName),
);

/**
 * Members that say so only where they name the same field: a label, a title, a description or
 * a path (Joi's `{"label":"externalId","key":"externalId"}`). A key's own record may carry a
 * label (`{"label":"CI","key":"…"}`).
 */
const NAMING_MEMBERS = new Set(
	['label', 'title', 'description', 'detail', ...PATH_NAME_KEYS].map(memberName),
);

/** Whether a member's text or list names `name` (as a word of a text, or a part of a list). */
function namesSame(field: unknown, name: string): boolean {
	const wanted = name.toLowerCase();
	if (Array.isArray(field)) {
		return field.some((part) => typeof part === 'string' && part.toLowerCase() === wanted);
	}
	if (typeof field !== 'string') return false;
	const text = field.toLowerCase();
	let at = text.indexOf(wanted);
	while (at >= 0) {
		const before = text[at - 1] ?? ' ';
		const after = text[at + wanted.length] ?? ' ';
		if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
		at = text.indexOf(wanted, at + 1);
	}
	return false;
}

/**
 * One part of a field's name as people write one (`externalId`, `Region`, `address_line2`,
 * `cardPAN`): letters, `_` and at most four digits at the end, in humps of three letters on
 * average, no capital run longer than eight. A key's look (`cp_live_Zx9Q…`, `aBcDeFgH…`,
 * `QWERTYUIOPASDFGH…`) has none of that.
 */
function fieldWord(part: string): boolean {
	if (part.length > 40 || !/^[A-Za-z][A-Za-z_]*\d{0,4}$/.test(part)) return false;
	const humps = part.replace(/\d+$/, '').match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? [];
	if (humps.some((hump) => /^[A-Z]{9,}$/.test(hump))) return false;
	const letters = humps.reduce((sum, hump) => sum + hump.length, 0);
	return humps.length === 0 || letters / humps.length >= 3 || part.length <= 4;
}

/**
 * Whether a `key` member holds a field's name, not a key (outside read r22-data, finding 3: Joi's
 * `context: {"label":"externalId","key":"externalId"}`, `{"key":"Region","message":…}`,
 * ASP.NET's `{"Key":"Card.Cvv",…}`): a name or a path of field words (fieldWord), beside a
 * message (MESSAGE_MEMBERS), or beside a label, a title or a path that names the same field. Any other
 * `key` is read as before: a secret, a lookup code kept (`order_payment`).
 */
export function keyNamesField(key: string, field: unknown, record: object): field is string {
	if (memberName(key) !== 'key' || typeof field !== 'string') return false;
	const parts = textParts(field);
	if (!parts || !parts.every((part) => index(part) || fieldWord(part))) return false;
	return Object.entries(record).some(([name, about]) => {
		if (name === key) return false;
		const member = memberName(name);
		if (MESSAGE_MEMBERS.has(member)) return true;
		return NAMING_MEMBERS.has(member) && namesSame(about, field);
	});
}
