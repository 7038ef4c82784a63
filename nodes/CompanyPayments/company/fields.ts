import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { NEW_API_KEY_FIELDS } from '../../shared/contract/assumptions';
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
		placeholder: 'name@email.com',
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
 * The output of a call that returns a new API key: the service's answer unchanged, led by
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
			: `${notice} The answer has none of the fields ${NEW_API_KEY_FIELDS.join(', ')}: look for the key among the fields below.`,
		apiKeyField: field,
	};
	for (const [key, value] of Object.entries(body)) {
		if (key !== 'notice' && key !== 'apiKeyField') output[key] = value;
	}
	return output;
}

/** "whsec_…9f3a": a webhook secret as it may appear in output, its last four characters only. */
export function maskWebhookSecret(value: string): string {
	if (value.length <= 8) return '••••';
	const prefix = value.startsWith('whsec_') ? 'whsec_' : '';
	return `${prefix}…${value.slice(-4)}`;
}

/**
 * The profile's fields are not shown in the document beyond `webhookUrl` and `webhookSecret`, so
 * any other field named like a credential (an API key, a token, a password, a secret) is
 * treated as one: its last four characters only.
 */
const CREDENTIAL_NAME = /apikey|token|password|secret|privatekey|accesskey/;

/** Masks every non-empty string field named like a secret, at any depth of the answer. */
function maskSecretsDeep(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(maskSecretsDeep);
	if (!isObject(value)) return value;
	const out: IDataObject = {};
	for (const [key, field] of Object.entries(value)) {
		const secret =
			typeof field === 'string' &&
			field !== '' &&
			CREDENTIAL_NAME.test(key.toLowerCase().replace(/[^a-z]/g, ''));
		out[key] = (secret ? maskWebhookSecret(field) : maskSecretsDeep(field)) as IDataObject[string];
	}
	return out;
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

/** A profile answer with its webhook secret masked unless the user chose to reveal it. */
export function profileOutput(answer: unknown, reveal: boolean): IDataObject {
	const body = isObject(answer) ? answer : { response: answer as IDataObject[keyof IDataObject] };
	return reveal ? body : (maskSecretsDeep(body) as IDataObject);
}
