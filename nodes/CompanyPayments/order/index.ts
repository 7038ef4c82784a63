import type { ResourceDefinition } from '../types';
import { accept } from './accept.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { pay } from './pay.operation';
import { prepare } from './prepare.operation';

export const order: ResourceDefinition = {
	value: 'order',
	operations: [prepare, accept, pay, get, getMany],
};
