import { listOperation } from '../common/listOperation';

export const getMany = listOperation({
	action: 'Get many disputes',
	description: 'List the company dispute history, newest first, one output item per dispute',
	path: '/disputes',
	itemsKey: 'disputes',
});
