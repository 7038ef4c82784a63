import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { NEW_API_KEY_FIELDS } from '../../shared/contract/assumptions';
import { reveal } from '../../shared/gate';
import { withNodeFields } from '../../shared/serviceFields';
import { invalidInput, readBoolean, readTextValue, showKindOnly } from '../common/validation';
import { asRecord, fieldPath, fieldPaths } from '../../shared/contract/recordsAnswer';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailField(description: string, required = true): INodeProperties {
	return {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		default: '',
		required,
		placeholder: 'e.g. name@email.com',
		description,
	};
}

export const passwordField: INodeProperties = {
	displayName: 'Password',
	name: 'password',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
};

/** Reads an e-mail address; returns undefined when optional and empty. */
export function readEmail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	required: boolean,
	name = 'email',
	field = 'Email',
): string | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const trimmed = readTextValue(ctx, itemIndex, value, field);
	if (!required && trimmed === '') return undefined;
	if (!EMAIL.test(trimmed)) {
		throw invalidInput(
			ctx,
			itemIndex,
			field,
			'must be an e-mail address like name@example.com',
			value ?? '',
		);
	}
	return trimmed;
}

/**
 * Reads a password or secret exactly as typed (not trimmed). Its value never appears in an
 * error message.
 */
export function readSecret(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	field: string,
): string {
	if (typeof value !== 'string') {
		// Not even the kind of value would tell much; the value itself never appears.
		throw invalidInput(ctx, itemIndex, field, 'must be text', value, showKindOnly);
	}
	if (value.trim() === '') {
		throw new NodeOperationError(ctx.getNode(), `${field} must not be empty`, {
			itemIndex,
			description: `Nothing was sent to the service. Fill in "${field}" on item ${itemIndex} and run again.`,
		});
	}
	return value;
}

/**
 * The Email (required) and Password fields of a login or an invite's acceptance, checked before
 * anything is sent.
 */
export function readEmailAndPassword(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { email: string; password: string } {
	const email = readEmail(ctx, itemIndex, true) as string;
	const password = readSecret(
		ctx,
		itemIndex,
		ctx.getNodeParameter('password', itemIndex, ''),
		'Password',
	);
	return { email, password };
}

/** Fields that may hold the key when the key's own field is an object (`apiKey: { value: … }`). */
const KEY_VALUE_FIELDS = ['value', ...NEW_API_KEY_FIELDS];

/**
 * Where the new key stands in an answer whose field names the document does not show: the path
 * of the first field named as NEW_API_KEY_FIELDS holding a text, nearest the top first (also one
 * such field's `value` when it is an object); null when there is none. The one rule for every
 * envelope (contract/recordsAnswer.ts fieldPath).
 */
export function newApiKeyPath(body: IDataObject): string[] | null {
	return fieldPath(body, NEW_API_KEY_FIELDS, undefined, KEY_VALUE_FIELDS);
}

/**
 * The output of a call that returns a new API key (the field that holds it opened for the user
 * through the gate, the only field; the model never gets it): the service's answer, led by
 * `notice` (a reminder to store the key) and `apiKeyField` (the path of the answer's field that
 * holds the key, `company.apiKey` when nested, or null when no field of the expected names holds
 * one; the answer's field names are not shown in the contract). With no key found nothing is
 * opened: every secret and undeclared field stays masked, and the notice lists the answer's field
 * names so the user knows where to look.
 */
export function newApiKeyOutput(answer: unknown, notice: string): IDataObject {
	const body = asRecord(answer);
	const path = newApiKeyPath(body);
	const field = path === null ? null : path.join('.');
	const own: IDataObject = {
		notice:
			field !== null
				? `${notice} The key is in the field "${field}".`
				: `${notice} The answer has no field named ${NEW_API_KEY_FIELDS.join(', ')} holding a key, so nothing was revealed and its secret fields stay masked. Its fields: ${fieldPaths(body).join(', ') || 'none'}. Read the key in the service's own console, or ask the service which field carries it.`,
		apiKeyField: field,
	};
	// The service's own `notice` or `apiKeyField` is kept under serviceFields, never overwritten
	// (outside read r12-data, finding 3); the node's two lead the item.
	const output: IDataObject = { ...own, ...withNodeFields(body, own) };
	// Only the key's own field is opened, where it stands (a path when nested).
	return field === null ? output : reveal(output, field);
}

/** The Reveal Webhook Secret option of the operations that output the company profile. */
export const revealWebhookSecretField: INodeProperties = {
	displayName: 'Reveal Webhook Secret',
	name: 'revealWebhookSecret',
	type: 'boolean',
	default: false,
	description:
		"Whether to output the webhook secret in full. Off, it is shown as whsec_… and its last four characters; on, anyone who can open this workflow's executions can read it and forge signed webhooks.",
};

/** Reads Reveal Webhook Secret; read before the request, so a wrong value sends nothing. */
export function readReveal(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return readBoolean(ctx, itemIndex, 'revealWebhookSecret', 'Reveal Webhook Secret', false);
}

/**
 * A profile answer. The gate masks its secrets (shared/gate.ts); Reveal Webhook Secret opens
 * its `webhookSecret` field, and that field only.
 */
export function profileOutput(answer: unknown, revealSecret: boolean): IDataObject {
	const body = asRecord(answer);
	return revealSecret ? reveal(body, 'webhookSecret') : body;
}

/** The company profile simplified (Get Profile's Compact Output): the fields a person reads. */
export const PROFILE_SIMPLE_FIELDS = [
	'id',
	'name',
	'email',
	'webhookUrl',
	'webhookSecret',
	'cardsTestMode',
	'createdAt',
	'updatedAt',
];
