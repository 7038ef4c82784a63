import type { ResourceDefinition } from '../types';
import { accept } from './accept';
import { get } from './get';
import { getMany } from './getMany';
import { pay } from './pay';
import { prepare } from './prepare';

export const order: ResourceDefinition = {
	value: 'order',
	operations: [prepare, accept, pay, get, getMany],
};
