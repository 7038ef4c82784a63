import type { IDataObject } from 'n8n-workflow';

import { maskCardNumber } from '../card/getSensitiveData';
import { maskWebhookSecret } from '../company/fields';
import { maskNumbers, maskRequisite } from '../payout/requisite';

export const HIDDEN = '[hidden from the AI model]';

/** Fields whose value is a credential or a card secret wherever they appear. */
const SECRET_FIELDS = new Set([
	'apikey',
	'api_key',
	'password',
	'sessiontoken',
	'accesstoken',
	'refreshtoken',
	'secret',
	'webhooksecret',
	'previouswebhooksecret',
	'cardcvv',
	'cvv',
	'cvc',
]);
const CARD_NUMBER_FIELDS = new Set(['cardnumberfull', 'cardnumber', 'pan']);
/** Free text that may quote a number the service or a person wrote. */
const TEXT_FIELDS = new Set([
	'error',
	'whattodo',
	'message',
	'servicemessage',
	'description',
	'comment',
	'note',
	'reason',
	'details',
]);
/** An invite link carries its token, which lets anyone join the company. */
const INVITE_LINK = /(\/auth\/invites\/)[^/?#\s"]+/g;

function maskField(key: string, value: unknown, secrets: string[], inText: boolean): unknown {
	const name = key.toLowerCase();
	// Masked already (by the operation): dots, then at most the last four digits.
	const masked = typeof value === 'string' && /^[•*…][•*…\s-]*\d{0,4}$/.test(value);
	if (typeof value === 'string' && value !== '' && !masked) {
		if (SECRET_FIELDS.has(name)) {
			return name.endsWith('webhooksecret') || name === 'secret'
				? maskWebhookSecret(value)
				: HIDDEN;
		}
		if (CARD_NUMBER_FIELDS.has(name)) return maskCardNumber(value);
		// A token field names a currency too (`token: "USDT"`); credentials are long.
		if (name === 'token' && value.length >= 16) return HIDDEN;
		if (name === 'requisite') return maskRequisite(value);
	}
	return maskValue(value, secrets, inText || TEXT_FIELDS.has(name));
}

function maskValue(value: unknown, secrets: string[], inText: boolean): unknown {
	if (typeof value === 'string') {
		let out = value;
		for (const secret of secrets) out = out.split(secret).join(HIDDEN);
		out = out.replace(INVITE_LINK, '$1[hidden]');
		return inText ? maskNumbers(out, '') : out;
	}
	if (Array.isArray(value)) return value.map((entry) => maskValue(entry, secrets, inText));
	if (typeof value === 'object' && value !== null) {
		const out: IDataObject = {};
		for (const [key, field] of Object.entries(value)) {
			out[key] = maskField(key, field, secrets, inText) as IDataObject[string];
		}
		return out;
	}
	return value;
}

/**
 * A tool result as the model may see it, whatever the node's options say: credentials and card
 * secrets hidden by field name (API keys, tokens, passwords, webhook secrets, CVV), full card
 * numbers and payout requisites cut to their last four digits, invite links without their
 * token, long digit runs in free text masked, and every occurrence of the credential's own
 * secrets (`secrets`: API key, webhook secrets) replaced, in any field.
 */
export function maskForModel(json: IDataObject, secrets: string[]): IDataObject {
	const usable = secrets.filter((secret) => typeof secret === 'string' && secret.length >= 8);
	return maskValue(json, usable, false) as IDataObject;
}
