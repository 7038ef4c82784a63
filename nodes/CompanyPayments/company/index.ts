import type { ResourceDefinition } from '../types';
import { getProfile } from './getProfile.operation';
import { login } from './login.operation';
import { regenerateApiKey } from './regenerateApiKey.operation';
import { rotateWebhookSecret } from './rotateWebhookSecret.operation';
import { updateProfile } from './updateProfile.operation';

export const company: ResourceDefinition = {
	value: 'company',
	operations: [getProfile, updateProfile, regenerateApiKey, rotateWebhookSecret, login],
};
