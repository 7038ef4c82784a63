import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { INVITE_URL_TOKEN_PARAMETER } from '../../shared/contract/assumptions';
import { HIDDEN_IN_PATH } from '../../shared/gate';
import { isDotSegment, readTextValue, showKindOnly } from '../common/validation';

/** What messages show in place of an invite's token: the token lets whoever holds it join the company. */
export const HIDDEN_TOKEN = HIDDEN_IN_PATH;

export const inviteTokenField: INodeProperties = {
	displayName: 'Invite Token or URL',
	name: 'inviteToken',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
	placeholder: 'e.g. https://pay.example.com/invite/…',
	description:
		'The token of the invite, or the whole invite URL (the token is then read from it). This call is public: it is sent without the API key.',
};

function refuse(ctx: IExecuteFunctions, itemIndex: number, rule: string): NodeOperationError {
	// The token admits a new member to the company, so it is not repeated in the message.
	return new NodeOperationError(ctx.getNode(), `Invite Token or URL ${rule}`, {
		itemIndex,
		description: `Nothing was sent to the service. Fix "Invite Token or URL" on item ${itemIndex} and run again.`,
	});
}

/**
 * Reads the invite token. An invite URL is accepted too: its token is the query parameter
 * named in assumptions.ts, else the URL's last path segment (the URL format is not shown).
 */
export function readInviteToken(ctx: IExecuteFunctions, itemIndex: number): string {
	const value = ctx.getNodeParameter('inviteToken', itemIndex, '') as unknown;
	let token = readTextValue(ctx, itemIndex, value, 'Invite Token or URL', showKindOnly);
	if (token === '') throw refuse(ctx, itemIndex, 'must not be empty');
	if (/^https?:\/\//i.test(token)) {
		let url: URL;
		try {
			url = new URL(token);
		} catch {
			throw refuse(ctx, itemIndex, 'looks like a URL but cannot be read as one');
		}
		const fromQuery = url.searchParams.get(INVITE_URL_TOKEN_PARAMETER);
		const segments = url.pathname.split('/').filter((part) => part !== '');
		const last = segments.length > 0 ? decodeURIComponent(segments[segments.length - 1]) : '';
		token = (fromQuery ?? last).trim();
		if (token === '') throw refuse(ctx, itemIndex, 'is a URL without a token in it');
	}
	if (/\s/.test(token)) throw refuse(ctx, itemIndex, 'must not contain spaces');
	if (isDotSegment(token)) throw refuse(ctx, itemIndex, 'must be a token, not "." or ".."');
	return token;
}
