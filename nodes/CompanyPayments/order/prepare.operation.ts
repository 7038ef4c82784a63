import type { IExecuteFunctions } from 'n8n-workflow';

import { requireText } from '../common/validation';
import { apiRequest } from '../../shared/transport';
import type { OperationDefinition, OperationResult } from '../types';
import { ENDPOINTS } from '../../shared/contract/endpoints';

export const qrCodeField = {
	displayName: 'QR Code',
	name: 'qrCode',
	type: 'string' as const,
	default: '',
	required: true,
	placeholder: 'e.g. https://qr.nspk.ru/AS10001…',
	description:
		'The content of the QR code: an NSPK/SBP link (incl. multiqr and platiqr), an ST00012 utility or budget payment string, or a traffic-fine UIN. The payment type is detected from it.',
};

/** POST /orders/prepare: a quote that lives 30 seconds. */
export async function prepareQuote(
	ctx: IExecuteFunctions,
	itemIndex: number,
	qrCode: string,
): Promise<OperationResult> {
	return (await apiRequest.call(ctx, {
		method: 'POST',
		path: ENDPOINTS.orderPrepare,
		body: { qrCode },
		itemIndex,
	})) as OperationResult;
}

export const prepare: OperationDefinition = {
	value: 'prepare',
	name: 'Prepare Quote',
	action: 'Prepare a quote',
	description:
		'Turn a QR code into a quote (valid 30 seconds) that Accept Quote turns into an order',
	kind: 'read',
	tool: {
		text: 'Prepare a quote for paying a QR code; nothing is paid and the quote expires after 30 seconds. Needs: QR Code (the text encoded in the QR code). Returns the quote: its ID and the amounts in RUB and USDT.',
	},
	docs: {
		endpoint: '`POST /orders/prepare`',
		permission: '`orders.create`',
		notes: 'Body `qrCode`. The quote lives 30 seconds.',
	},
	properties: [qrCodeField],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const qrCode = requireText(this, itemIndex, 'qrCode', 'QR Code');
		return await prepareQuote(this, itemIndex, qrCode);
	},
};
