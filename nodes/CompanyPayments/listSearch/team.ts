import type { IDataObject } from 'n8n-workflow';

import { TEAM_LIST_KEYS } from '../../shared/contract/assumptions';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { joinParts, searchMethod, shortDate, text } from './search';

/** A member as a person recognises them: e-mail and role. */
export function memberEntry(record: IDataObject, id: string) {
	return {
		name: joinParts([text(record, 'email') ?? id, text(record, 'role')]),
		value: id,
	};
}

/**
 * An open invite: the e-mail it is for (or that anyone with the link may accept it), role and
 * expiry. Never its URL or token, which admit a new member.
 */
export function inviteEntry(record: IDataObject, id: string) {
	const expires = shortDate(record.expiresAt)?.slice(0, 10);
	return {
		name: joinParts([
			text(record, 'email') ?? 'Anyone with the link',
			text(record, 'role'),
			expires ? `expires ${expires}` : undefined,
		]),
		value: id,
	};
}

/** The members of the company (Member → Update, Remove). */
export const getMembers = searchMethod({
	path: ENDPOINTS.members,
	itemsKey: TEAM_LIST_KEYS.members,
	entry: memberEntry,
});

/** The open invites of the company (Invite → Revoke). */
export const getInvites = searchMethod({
	path: ENDPOINTS.invites,
	itemsKey: TEAM_LIST_KEYS.invites,
	entry: inviteEntry,
});
