import { listOperation } from '../common/listOperation';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const getMany = listOperation({
	action: 'Get many disputes',
	description: 'List the company dispute history, newest first, one output item per dispute',
	path: ENDPOINTS.disputes,
	itemsKey: 'disputes',
});
