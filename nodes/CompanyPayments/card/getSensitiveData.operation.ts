import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { addHint } from '../common/hints';
import { readBoolean, segment } from '../common/validation';
import { LINE_BREAK, apiRequest, serviceErrorInfo } from '../../shared/transport';
import { reveal } from '../../shared/gate';
import { withNodeFields } from '../../shared/serviceFields';
import { asRecord, fieldPath, fieldPaths } from '../../shared/contract/recordsAnswer';
import { ASSIGNED } from '../listSearch/cards';
import type { OperationDefinition } from '../types';
import { assignedCardIdFields, readCardId } from './fields';

/** The fields Mask Card Number and CVV off opens: the card's number and its CVV (the document's). */
const SENSITIVE_FIELDS = ['cardNumberFull', 'cardCvv'];

/** A field that stands with a value (a text, a number, or null: nothing to mask), not a record. */
const present = (value: unknown): boolean =>
	value === null || typeof value === 'string' || typeof value === 'number';

const NOT_ASSIGNED =
	'No assigned card with this ID in this company: the card does not exist, or it is not in status assigned. Sensitive data is available only for assigned cards; requested, retired and failed cards answer 404';

/**
 * A 404 does not say whether the card is missing or only not assigned. When the card exists,
 * its status is looked up and said, in the error and as a hint beside the output (Continue On
 * Fail): "Card card_1 is closed, not assigned".
 */
async function withCardStatus(
	ctx: IExecuteFunctions,
	error: unknown,
	cardId: string,
	itemIndex: number,
): Promise<unknown> {
	if (serviceErrorInfo(error)?.httpCode !== 404) return error;
	let status: unknown;
	try {
		const card = (await apiRequest.call(ctx, {
			method: 'GET',
			path: `/cards/${segment(cardId)}`,
			itemIndex,
		})) as IDataObject;
		status = card?.status;
	} catch {
		// The card itself is unknown too: the 404's own explanation stands.
		return error;
	}
	if (typeof status !== 'string' || status === ASSIGNED) return error;
	const message = `Card ${cardId} is ${status}, not ${ASSIGNED}: the service reveals card data only for assigned cards. Pick a card from the list, which shows assigned cards only.`;
	addHint(ctx, message, 'warning');
	const described = error as { description?: string | null };
	described.description = described.description
		? `${described.description}${LINE_BREAK}${message}`
		: message;
	return error;
}

export const getSensitiveData: OperationDefinition = {
	value: 'getSensitiveData',
	name: 'Get Card Number and CVV',
	action: 'Get card number and CVV',
	description:
		'Reveal the full card number, CVV and expiry of an assigned card. The service logs every reveal.',
	concurrent: true,
	kind: 'read',
	tool: {
		text: 'Check the details of an assigned card. For an AI agent the card number and CVV are always masked (last four digits only). Needs: Card ID. Returns cardId, the masked number, expiry.',
	},
	docs: {
		endpoint: '`GET /cards/{id}/sensitive`',
		notes:
			"Assigned cards only (others answer 404). The UI warns that the full number and CVV land in n8n's execution data. **Mask Card Number and CVV** is on by default and outputs `•••• •••• •••• 1234` and `•••`; turn it off only when a later node really needs the full values (opened where they stand, also under `data`; with no `cardNumberFull` or `cardCvv` field the item says `masked: true` and a notice). The service logs every reveal.",
	},
	properties: [
		{
			displayName:
				'Unmasked, the card number and CVV are stored with the execution and readable by anyone who can open its executions. Keep "Mask Card Number and CVV" on unless a later node needs them; then turn off saving successful executions.',
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
		const mask = readBoolean(
			this,
			itemIndex,
			'maskSensitiveData',
			'Mask Card Number and CVV',
			true,
		);
		let body: IDataObject;
		try {
			body = (await apiRequest.call(this, {
				method: 'GET',
				path: `/cards/${segment(cardId)}/sensitive`,
				itemIndex,
				// A card that is not assigned answers 404; the document states no errorCode for it.
				explain: { CARD_NOT_FOUND: NOT_ASSIGNED, CARD_NOT_ACTIVE: NOT_ASSIGNED },
				explainStatus: { 404: NOT_ASSIGNED },
			})) as IDataObject;
		} catch (error) {
			throw await withCardStatus(this, error, cardId, itemIndex);
		}
		// The gate masks the number and CVV (shared/gate.ts); turned off, it opens these two fields
		// where they stand, also inside an envelope (`data.cardNumberFull`: one rule,
		// contract/recordsAnswer.ts). The service's own `masked`, if any, is kept under
		// serviceFields (r12-data, finding 3).
		const record = asRecord(body);
		if (mask === false) {
			const paths = SENSITIVE_FIELDS.map((name) => fieldPath(record, [name], present));
			const found = paths.filter((path): path is string[] => path !== null);
			if (found.length > 0) {
				return reveal(withNodeFields(record, { masked: false }), ...found.map((p) => p.join('.')));
			}
			// Nothing to open: never `masked: false` on what the gate masks (outside read r16-data, F3).
			return withNodeFields(record, {
				masked: true,
				notice: `Mask Card Number and CVV is off, but the answer has no field named ${SENSITIVE_FIELDS.join(' or ')}, so nothing was revealed and its card data stays masked. Its fields: ${fieldPaths(record).join(', ') || 'none'}.`,
			});
		}
		return withNodeFields(record, { masked: true });
	},
};
