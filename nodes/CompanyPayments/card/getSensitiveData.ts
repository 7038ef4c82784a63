import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { assignedCardIdFields, readCardId } from './fields';

const NOT_ASSIGNED =
	'No assigned card with this ID in this company: the card does not exist, or it is not in status assigned. Sensitive data is available only for assigned cards; requested, retired and failed cards answer 404';

/** "•••• •••• •••• 1234": the last four digits only, the way the card itself is usually shown. */
export function maskCardNumber(value: unknown): string | null {
	if (typeof value !== 'string' || value === '') return null;
	const digits = value.replace(/\D/g, '');
	return digits.length > 4 ? `•••• •••• •••• ${digits.slice(-4)}` : '•••• •••• •••• ••••';
}

function maskCvv(value: unknown): string | null {
	return typeof value === 'string' && value !== '' ? '•••' : null;
}

export const getSensitiveData: OperationDefinition = {
	value: 'getSensitiveData',
	name: 'Get Sensitive Data',
	action: 'Get card number and CVV',
	description:
		'Reveal the full card number, CVV and expiry of an assigned card. The service logs every reveal.',
	readOnly: true,
	properties: [
		{
			displayName:
				'The full card number and CVV become part of this execution\'s data: n8n stores them with the execution (if saving executions is on) and anyone who can open this workflow\'s executions can read them. Keep "Mask Card Number and CVV" on unless a later node really needs them, and turn off saving of successful executions for this workflow if it does.',
			name: 'sensitiveDataNotice',
			type: 'notice',
			default: '',
		},
		...assignedCardIdFields,
		{
			displayName: 'Mask Card Number and CVV',
			name: 'maskSensitiveData',
			type: 'boolean',
			default: true,
			description:
				'Whether to replace the card number by its last four digits and the CVV by dots in the output. The reveal still happens and is logged by the service.',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const cardId = readCardId(this, itemIndex);
		const mask = this.getNodeParameter('maskSensitiveData', itemIndex, true) as boolean;
		const body = (await apiRequest.call(this, {
			method: 'GET',
			path: `/cards/${segment(cardId)}/sensitive`,
			itemIndex,
			// A card that is not assigned answers 404; the document states no errorCode for it.
			explain: { CARD_NOT_FOUND: NOT_ASSIGNED, CARD_NOT_ACTIVE: NOT_ASSIGNED },
			explainStatus: { 404: NOT_ASSIGNED },
		})) as IDataObject;
		if (mask === false) return { ...body, masked: false };
		return {
			...body,
			cardNumberFull: maskCardNumber(body.cardNumberFull),
			cardCvv: maskCvv(body.cardCvv),
			masked: true,
		};
	},
};
