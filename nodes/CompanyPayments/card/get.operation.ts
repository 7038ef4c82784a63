import { idCall } from '../common/calls';
import { CARD_SIMPLE_FIELDS, cardIdFields, readCardId } from './fields';

export const get = idCall({
	value: 'get',
	name: 'Get',
	action: 'Get a card',
	description: 'Get one card by its ID: status, masked number, expiry',
	kind: 'read',
	tool: {
		text: 'Look up one card by its ID. Needs: Card ID. Returns status (requested, assigned, closing, closed, failed), maskedPan (the masked number), expiry.',
		compact: CARD_SIMPLE_FIELDS,
	},
	docs: { endpoint: '`GET /cards/{id}`' },
	properties: cardIdFields,
	method: 'GET',
	readId: readCardId,
	path: (id) => `/cards/${id}`,
});
