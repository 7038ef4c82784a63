import { TEAM_LIST_KEYS } from '../../shared/contract/assumptions';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many members',
	description:
		'List the members of the company with their roles and permissions, one output item per member',
	kind: 'read',
	tool: {
		text: 'List the team members of the company. Needs nothing. Returns one short record per member: userId, email, role, permissions.',
		compact: ['userId', 'email', 'role', 'permissions'],
	},
	docs: {
		endpoint: '`GET /members`',
		permission: '`members.read`',
		notes: 'Return All / Limit.',
	},
	path: ENDPOINTS.members,
	itemsKey: TEAM_LIST_KEYS.members,
});
