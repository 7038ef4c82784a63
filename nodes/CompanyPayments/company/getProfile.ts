import { fixedCall } from '../common/fixedCall';

export const getProfile = fixedCall({
	value: 'getProfile',
	name: 'Get Profile',
	action: 'Get the company profile',
	description: 'Get the company profile, including the webhook URL',
	method: 'GET',
	path: '/auth/company/profile',
});
