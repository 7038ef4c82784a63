import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MEMBER_ROLES as ROLES } from '../../shared/contract/assumptions';
import { invalidInput } from '../common/validation';

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

/** The Permissions field: a comma-separated list, so it takes any permission, named or not. */
export function permissionsField(description: string): INodeProperties {
	return {
		displayName: 'Permissions',
		name: 'permissions',
		type: 'string',
		default: '',
		placeholder: 'e.g. orders.read, orders.create',
		description: `${description} Separate names with commas. Known permissions: ${NAMED_PERMISSIONS.join(', ')}; others your account uses are accepted too.`,
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
	if (value === undefined || value === null) return undefined;
	let parts: unknown[];
	if (Array.isArray(value)) {
		parts = value;
	} else if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		parts = value.split(/[,\n]/);
	} else {
		throw invalidInput(
			ctx,
			itemIndex,
			field,
			'must be a comma-separated list of permission names',
			value,
		);
	}
	const names: string[] = [];
	for (const part of parts) {
		const name = typeof part === 'string' ? part.trim() : part;
		if (name === '' && !Array.isArray(value)) continue;
		if (typeof name !== 'string' || !PERMISSION.test(name)) {
			throw invalidInput(
				ctx,
				itemIndex,
				field,
				'must be permission names like orders.read, separated by commas (no spaces inside a name)',
				name,
			);
		}
		if (!names.includes(name)) names.push(name);
	}
	if (names.length === 0 && !Array.isArray(value)) return undefined;
	return names;
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
