import type { IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { cardIdFields, readCardId } from './fields';

export const get: OperationDefinition = {
	value: 'get',
	name: 'Get',
	action: 'Get a card',
	description: 'Get one card by its ID: status, masked number, expiry',
	concurrent: true,
	kind: 'read',
	tool: {
		text: 'Look up one card by its ID. Needs: Card ID. Returns status (requested, assigned, closing, closed, failed), maskedPan (the masked number), expiry.',
	},
	docs: {
		endpoint: "`GET /cards/{id}`",
		permission: "not named",
		notes: "",
	},
	properties: cardIdFields,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const cardId = readCardId(this, itemIndex);
		return (await apiRequest.call(this, {
			method: 'GET',
			path: `/cards/${segment(cardId)}`,
			itemIndex,
		})) as OperationResult;
	},
};
