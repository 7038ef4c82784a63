import { LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many cards',
	description: 'List the company cards, one output item per card',
	path: ENDPOINTS.cards,
	itemsKey: LIST_ITEMS_KEYS.cards,
	filters: [
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			placeholder: 'e.g. employee-42',
			description: 'Only the card with this external ID (sent as the query parameter externalId)',
		},
	],
});
