import { TEAM_LIST_KEYS } from '../../shared/contract/assumptions';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many invites',
	description:
		'List the open invites (neither accepted nor expired), one output item per invite (needs members.read)',
	path: ENDPOINTS.invites,
	itemsKey: TEAM_LIST_KEYS.invites,
});
