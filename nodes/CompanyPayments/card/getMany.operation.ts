import { LIST_ITEMS_KEYS } from '../../shared/contract/assumptions';
import { listOperation } from '../common/listOperation';
import { CARD_SIMPLE_FIELDS } from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many cards',
	description: 'List the company cards, one output item per card',
	kind: 'read',
	tool: {
		text: 'List the company cards, optionally only the one with an External ID. Needs nothing. Returns one short record per card: id, externalId, status, maskedPan, expiry.',
		compact: CARD_SIMPLE_FIELDS,
	},
	docs: {
		endpoint: '`GET /cards`',
		notes: 'Return All / Limit, filter External ID.',
	},
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
