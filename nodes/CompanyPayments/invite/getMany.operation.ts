import { TEAM_LIST_KEYS } from '../../shared/contract/assumptions';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many invites',
	description:
		'List the open invites (neither accepted nor expired), one output item per invite (needs members.read)',
	kind: 'read',
	tool: {
		text: 'List the open invites of the company. Needs nothing. Returns one short record per invite: id, email, role, status, expiresAt.',
		compact: ['id', 'email', 'role', 'status', 'expiresAt', 'createdAt'],
	},
	docs: {
		endpoint: '`GET /members/invites`',
		permission: '`members.read`',
		notes: 'Invites neither accepted nor expired.',
	},
	path: ENDPOINTS.invites,
	itemsKey: TEAM_LIST_KEYS.invites,
});
