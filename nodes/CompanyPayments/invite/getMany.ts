import { TEAM_LIST_KEYS } from '../assumptions';
import { listOperation } from '../common/listOperation';

export const getMany = listOperation({
	action: 'Get many invites',
	description:
		'List the open invites (neither accepted nor expired), one output item per invite (needs members.read)',
	path: '/members/invites',
	itemsKey: TEAM_LIST_KEYS.invites,
});
