import { TEAM_LIST_KEYS } from '../assumptions';
import { listOperation } from '../common/listOperation';

export const getMany = listOperation({
	action: 'Get many members',
	description:
		'List the members of the company with their roles and permissions, one output item per member',
	path: '/members',
	itemsKey: TEAM_LIST_KEYS.members,
});
