import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PATH_ID_PATTERN, UUID_PATTERN, checkPathId, checkUuid } from './validation';

/**
 * Node version 1.2 turns every field that names an existing record into a resource locator
 * (From list / By ID). Versions 1 and 1.1 keep the plain text field of the same name, so their
 * saved workflows (whose value is a string) open and run unchanged.
 */
export const RESOURCE_LOCATOR_VERSION = 1.2;

const BEFORE_LOCATORS = { '@version': [{ _cnd: { lt: RESOURCE_LOCATOR_VERSION } }] };
const WITH_LOCATORS = { '@version': [{ _cnd: { gte: RESOURCE_LOCATOR_VERSION } }] };

/** How an ID is checked: any path segment, or a UUID (orders). */
export type IdRule = 'pathId' | 'uuid';

export interface RecordIdField {
	displayName: string;
	name: string;
	description: string;
	/** The example in the By ID mode and in the plain field of older versions. */
	placeholder: string;
	/** The list search method of the From list mode (methods.listSearch). */
	searchListMethod: string;
	/** The From list mode's placeholder, e.g. "Select a card…". */
	listPlaceholder: string;
	rule?: IdRule;
	/** The plain field's label and description in versions 1 and 1.1, when they differ. */
	legacy?: { displayName: string; description: string };
}

const RULE_MESSAGES: Record<IdRule, (field: string) => string> = {
	pathId: (field) => `${field} must be an ID, not empty, "." or ".."`,
	uuid: (field) => `${field} must be a UUID`,
};

/**
 * The field that names an existing record, in both forms: a text field shown to nodes before
 * version 1.2 and a resource locator (From list, By ID) from 1.2 on, under the same name.
 */
export function recordIdFields(field: RecordIdField): INodeProperties[] {
	const rule = field.rule ?? 'pathId';
	const legacy: INodeProperties = {
		displayName: field.legacy?.displayName ?? field.displayName,
		name: field.name,
		type: 'string',
		default: '',
		required: true,
		placeholder: field.placeholder,
		description: field.legacy?.description ?? field.description,
		displayOptions: { show: BEFORE_LOCATORS },
	};
	const locator: INodeProperties = {
		displayName: field.displayName,
		name: field.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: field.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: field.listPlaceholder,
				typeOptions: { searchListMethod: field.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: field.placeholder,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: rule === 'uuid' ? UUID_PATTERN : PATH_ID_PATTERN,
							errorMessage: RULE_MESSAGES[rule](field.legacy?.displayName ?? field.displayName),
						},
					},
				],
			},
		],
		displayOptions: { show: WITH_LOCATORS },
	};
	return [legacy, locator];
}

/**
 * The value of a resource locator (`{ __rl, mode, value }`), or the value itself (a string).
 * Only a locator is unwrapped: an expression's own object that happens to hold `value` is a
 * value of the wrong type, refused by the ID check, not read as an ID.
 */
export function locatorValue(value: unknown): unknown {
	if (typeof value === 'object' && value !== null && '__rl' in value && 'value' in value) {
		return (value as { value: unknown }).value;
	}
	return value;
}

/**
 * Reads a record ID from a plain text field (versions 1 and 1.1, expressions) or a resource
 * locator (1.2), and checks it the way the plain field always was.
 */
export function readRecordId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	field: string,
	rule: IdRule = 'pathId',
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	const value = locatorValue(raw);
	return rule === 'uuid'
		? checkUuid(ctx, itemIndex, value, field)
		: checkPathId(ctx, itemIndex, value, field);
}
