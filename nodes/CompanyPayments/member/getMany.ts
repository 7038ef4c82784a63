import { TEAM_LIST_KEYS } from '../../shared/contract/assumptions';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many members',
	description:
		'List the members of the company with their roles and permissions, one output item per member',
	path: ENDPOINTS.members,
	itemsKey: TEAM_LIST_KEYS.members,
});
