import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MEMBER_ROLES as ROLES } from '../../shared/contract/assumptions';
import { RESOURCE_LOCATOR_VERSION } from '../common/locator';
import { invalidInput, readTextList } from '../common/validation';

/** Node version from which Permissions is a multi-select (the version of the resource locators). */
export const PERMISSION_CHOICE_VERSION = RESOURCE_LOCATOR_VERSION;
const BEFORE_CHOICE = { '@version': [{ _cnd: { lt: PERMISSION_CHOICE_VERSION } }] };
const WITH_CHOICE = { '@version': [{ _cnd: { gte: PERMISSION_CHOICE_VERSION } }] };

/** A collection in two forms: for nodes before version 1.2, and from 1.2 on (same name). */
export function byVersion(
	before: INodeProperties,
	from: INodeProperties,
): [INodeProperties, INodeProperties] {
	return [
		{ ...before, displayOptions: { show: { ...before.displayOptions?.show, ...BEFORE_CHOICE } } },
		{ ...from, displayOptions: { show: { ...from.displayOptions?.show, ...WITH_CHOICE } } },
	];
}

/** The permissions the interface document names; the complete list is not shown. */
export const NAMED_PERMISSIONS = [
	'members.read',
	'members.role.write',
	'members.remove',
	'members.invite',
	'webhook.manage',
	'orders.create',
	'orders.read',
	'cards.recharge',
];

/** A permission name: letters, digits and . _ : * - (e.g. orders.read); no spaces or commas. */
const PERMISSION = /^[A-Za-z0-9_.:*-]+$/;

const LIST_RULE =
	'must be permission names like orders.read, separated by commas (no spaces inside a name)';

/** The Permissions field: a comma-separated list, so it takes any permission, named or not. */
export function permissionsField(description: string): INodeProperties {
	return {
		displayName: 'Permissions',
		name: 'permissions',
		type: 'string',
		default: '',
		placeholder: 'e.g. orders.read, orders.create',
		// The known names are the Permissions options of the newer version and the docs' list.
		description: `${description} Names separated by commas, e.g. orders.read; any name your account uses is accepted`,
	};
}

/**
 * Reads a permission list: a comma (or line) separated string, or an array from an expression.
 * Returns undefined when the field is empty; an expression giving an empty array (`{{ [] }}`)
 * returns an empty list on purpose.
 */
export function readPermissions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field = 'Permissions',
): string[] | undefined {
	const names = readTextList(ctx, itemIndex, value, field, LIST_RULE);
	for (const name of names ?? []) {
		if (!PERMISSION.test(name)) throw invalidInput(ctx, itemIndex, field, LIST_RULE, name);
	}
	return names;
}

const PERMISSION_HELP: Record<string, string> = {
	'cards.recharge': 'Recharge cards',
	'members.invite': 'Invite new members and revoke invites',
	'members.read': 'List members and invites',
	'members.remove': 'Remove members',
	'members.role.write': "Change members' roles and permissions",
	'orders.create': 'Prepare, accept and pay orders',
	'orders.read': 'Read orders',
	'webhook.manage': 'Rotate the webhook secret',
};

/**
 * From node version 1.2: the permissions the document names as a multi-select, and every other
 * permission (the complete list is not shown) as text beside it. Both go into one list.
 */
export function permissionChoiceFields(description: string): INodeProperties[] {
	return [
		{
			displayName: 'Permissions',
			name: 'permissions',
			type: 'multiOptions',
			default: [],
			options: [...NAMED_PERMISSIONS].sort().map((name) => ({
				name,
				value: name,
				description: PERMISSION_HELP[name],
			})),
			description: `${description} The permissions the service documents; add others under Other Permissions`,
		},
		{
			displayName: 'Other Permissions',
			name: 'otherPermissions',
			type: 'string',
			default: '',
			placeholder: 'e.g. payouts.create, cards.read',
			description:
				'Permissions not in the Permissions list that your account uses, separated by commas; sent together with the ones picked there',
		},
	];
}

/**
 * Reads the permissions of a collection. Versions 1 and 1.1: the text field (see
 * readPermissions). From 1.2: the picked permissions plus Other Permissions, each once;
 * nothing picked and nothing typed means the field is not sent (an empty selection never
 * takes every permission away by accident: `removeAll` does that on purpose).
 */
export function readPermissionFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
	removeAll = false,
): string[] | undefined {
	if (ctx.getNode().typeVersion < PERMISSION_CHOICE_VERSION) {
		return readPermissions(ctx, itemIndex, fields.permissions);
	}
	if (removeAll) return [];
	const picked = readPermissions(ctx, itemIndex, fields.permissions) ?? [];
	const other = readPermissions(ctx, itemIndex, fields.otherPermissions, 'Other Permissions') ?? [];
	const names = [...new Set([...picked, ...other])];
	return names.length > 0 ? names : undefined;
}

/**
 * The Role field: the roles this package offers (the document names only owner; see
 * assumptions.ts). An expression can still send another role name, as typed.
 */
export function roleField(description: string): INodeProperties {
	return {
		displayName: 'Role',
		name: 'role',
		type: 'options',
		default: 'member',
		options: ROLES.map((role) => ({
			name: role.name,
			value: role.value,
			description: role.description,
		})),
		description,
	};
}

/** Reads an optional role: trimmed text, or undefined when empty; anything else is refused. */
export function readRole(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') throw invalidInput(ctx, itemIndex, 'Role', 'must be text', value);
	return value.trim() === '' ? undefined : value.trim();
}
