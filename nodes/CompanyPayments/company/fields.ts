import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { NEW_API_KEY_FIELDS } from '../../shared/contract/assumptions';
import { reveal } from '../../shared/gate';
import { invalidInput, readBoolean, readTextValue, showKindOnly } from '../common/validation';
import { isObject } from '../../shared/contract/guards';

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

/**
 * The output of a call that returns a new API key (the field that holds it opened for the user
 * through the gate, the only field; the model never gets it): the service's answer, led by
 * `notice` (a reminder to store the key) and `apiKeyField` (the answer's field that holds the
 * key, or null when none of the expected names is present; the answer's field names are not
 * shown in the contract).
 */
export function newApiKeyOutput(answer: unknown, notice: string): IDataObject {
	const body = isObject(answer) ? answer : { response: answer as IDataObject[keyof IDataObject] };
	const field =
		NEW_API_KEY_FIELDS.find((name) => typeof body[name] === 'string' && body[name] !== '') ?? null;
	const output: IDataObject = {
		notice: field
			? `${notice} The key is in the field "${field}".`
			: `${notice} The answer has none of the fields ${NEW_API_KEY_FIELDS.join(', ')}: look for the key among the fields below (shown in full).`,
		apiKeyField: field,
	};
	for (const [key, value] of Object.entries(body)) {
		if (key !== 'notice' && key !== 'apiKeyField') output[key] = value;
	}
	// Its own field opened; when the answer names it otherwise, the answer's own fields are.
	return field === null ? reveal(output, ...Object.keys(body)) : reveal(output, field);
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
	const body = isObject(answer) ? answer : { response: answer as IDataObject[keyof IDataObject] };
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
