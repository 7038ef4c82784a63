import type { IExecuteFunctions } from 'n8n-workflow';

import { requireText } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { externalIdField } from './fields';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const createOrGet: OperationDefinition = {
	value: 'createOrGet',
	name: 'Create or Get',
	action: 'Create or get a user wallet',
	description: 'Create the wallet of an end user, or return it if this external ID already has one',
	kind: 'write',
	tool: {
		text: 'Create the deposit wallet of an end user, or return the one this user already has. Needs: External ID (your identifier of the user). Returns the wallet: id, externalId, address, status.',
	},
	docs: {
		endpoint: '`POST /user-wallets`',
		notes: 'Body `externalId`; one wallet per external ID.',
	},
	properties: [externalIdField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const externalId = requireText(this, itemIndex, 'externalId', 'External ID');
		return (await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.userWallets,
			body: { externalId },
			itemIndex,
		})) as OperationResult;
	},
};
