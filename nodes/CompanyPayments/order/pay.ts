import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { QUOTE_ID_FIELDS } from '../../shared/contract/assumptions';
import { payIdempotencyKeyField } from '../common/fields';
import { requireText } from '../common/validation';
import { idempotencyKey } from '../../shared/transport';
import type { OperationDefinition } from '../types';
import { acceptQuote } from './accept';
import { prepareQuote, qrCodeField } from './prepare';

const EXPIRED =
	'The quote expired before it could be accepted (quotes live 30 seconds). Nothing was paid; run the node again to pay with a new quote';

export const pay: OperationDefinition = {
	value: 'pay',
	name: 'Pay QR Code',
	action: 'Pay a QR code',
	description: 'Prepare a quote from the QR code and accept it at once; outputs the order',
	properties: [qrCodeField, payIdempotencyKeyField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const qrCode = requireText(this, itemIndex, 'qrCode', 'QR Code');
		// Not derived from the quote: every run prepares a new quote, so a quote-derived key would
		// let Retry On Fail pay twice. The execution-derived key covers Retry On Fail; a payment
		// reference set by the user covers re-runs of the execution.
		const key = idempotencyKey(
			this,
			itemIndex,
			this.getNodeParameter('idempotencyKey', itemIndex, ''),
			'Idempotency Key',
		);
		const quote = (await prepareQuote(this, itemIndex, qrCode)) as IDataObject;
		const idField = QUOTE_ID_FIELDS.find((field) => typeof quote[field] === 'string');
		if (!idField) {
			throw new NodeApiError(this.getNode(), quote as JsonObject, {
				message: 'The service prepared a quote without an ID, so it cannot be accepted',
				description: `Expected one of the fields ${QUOTE_ID_FIELDS.join(', ')} in the answer of POST /orders/prepare. Nothing was paid.`,
				itemIndex,
			});
		}
		const order = await acceptQuote(this, itemIndex, quote[idField] as string, key, {
			QUOTE_EXPIRED: EXPIRED,
			QUOTE_NOT_FOUND: EXPIRED,
		});
		return { ...order, quote };
	},
};
