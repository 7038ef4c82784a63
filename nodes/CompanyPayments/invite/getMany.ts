import type { IExecuteFunctions } from 'n8n-workflow';

import { TEAM_LIST_KEYS } from '../assumptions';
import { listFields, readListFields } from '../common/fields';
import { listRecords } from '../transport';
import type { OperationDefinition } from '../types';

export const getMany: OperationDefinition = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many invites',
	description:
		'List the open invites (neither accepted nor expired), one output item per invite (needs members.read)',
	readOnly: true,
	properties: [...listFields],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		return await listRecords.call(this, {
			path: '/members/invites',
			itemsKey: TEAM_LIST_KEYS.invites,
			...readListFields(this, itemIndex),
			itemIndex,
		});
	},
};
