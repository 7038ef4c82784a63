import type { ResourceDefinition } from '../types';
import { getProfile } from './getProfile';
import { login } from './login';
import { regenerateApiKey } from './regenerateApiKey';
import { rotateWebhookSecret } from './rotateWebhookSecret';
import { updateProfile } from './updateProfile';

export const company: ResourceDefinition = {
	value: 'company',
	operations: [getProfile, updateProfile, regenerateApiKey, rotateWebhookSecret, login],
};
