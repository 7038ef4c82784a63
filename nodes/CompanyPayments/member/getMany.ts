import type { IExecuteFunctions } from 'n8n-workflow';

import { TEAM_LIST_KEYS } from '../assumptions';
import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many members',
	description: 'List the members of the company with their roles and permissions, one output item per member',
	readOnly: true,
	properties: [...listFields],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/members',
			itemsKey: TEAM_LIST_KEYS.members,
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
