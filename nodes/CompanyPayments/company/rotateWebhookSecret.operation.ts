import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import { reveal } from '../../shared/gate';
import { withNodeFields } from '../../shared/serviceFields';
import type { OperationDefinition } from '../types';
import { ENDPOINTS } from '../../shared/contract/endpoints';
import { asRecord, fieldPath, fieldPaths } from '../../shared/contract/recordsAnswer';
import { SECRET } from '../common/words';

/**
 * The names of the new secret in the rotation's answer, first found nearest the top (the
 * document: `webhookSecret`; contract/choices.ts `rotationAnswer`).
 */
export const ROTATED_SECRET_FIELDS = [
	'webhookSecret',
	'webhook_secret',
	'newWebhookSecret',
	'secret',
];

/** The secret's form in the document: `whsec_` and 48 hex characters. */
const SECRET_FORM = /^whsec_[0-9a-f]{48}$/i;

/**
 * The rotation's answer as a record: a bare text of the secret's documented form is the new
 * secret (`{ webhookSecret }`); any other value that is no record is `{ value }` (asRecord).
 */
function rotatedAnswer(answer: unknown): IDataObject {
	if (typeof answer === 'string' && SECRET_FORM.test(answer.trim())) {
		return { webhookSecret: answer };
	}
	return asRecord(answer);
}

const NOTICE =
	'New webhooks are signed with the new secret at once: put it into the Webhook Secret of the credential used by the Company Payments Trigger (or wherever you verify webhooks) right away, or deliveries fail verification.';

export const rotateWebhookSecret: OperationDefinition = {
	value: 'rotateWebhookSecret',
	name: 'Rotate Webhook Secret',
	action: 'Rotate webhook signing secret',
	description: 'Generate a new secret that webhooks are signed with (needs webhook.manage)',
	kind: 'credentials',
	tool: {
		text: `Rotate the webhook signing secret. ${SECRET}`,
	},
	docs: {
		endpoint: '`POST /auth/company/webhook-secret/rotate`',
		permission: '`webhook.manage`',
		notes:
			"Returns `webhookSecret` (`whsec_` + 48 hex), shown in full where it stands (also under `data`, or a bare `whsec_…` answer). New webhooks are signed with it at once: update the trigger's credential (or let the trigger rotate it itself, see below). An answer without the secret fails saying the secret was rotated and could not be shown.",
	},
	properties: [
		{
			displayName: NOTICE,
			name: 'rotateWebhookSecretNotice',
			type: 'notice',
			default: '',
		},
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const answer = await apiRequest.call(this, {
			method: 'POST',
			path: ENDPOINTS.webhookRotation,
			itemIndex,
		});
		const body = rotatedAnswer(answer);
		const path = fieldPath(body, ROTATED_SECRET_FIELDS);
		if (path === null) {
			// Rotated all the same: the old secret no longer signs. Said as the trigger's own
			// rotation says it, with the answer's field names (never its values).
			throw new NodeOperationError(
				this.getNode(),
				`The answer of POST ${ENDPOINTS.webhookRotation} holds no webhookSecret`,
				{
					itemIndex,
					description: `The service rotated the webhook secret: the old one no longer signs new webhooks, and the new one could not be shown. The answer has no field named ${ROTATED_SECRET_FIELDS.join(', ')} holding a text (its fields: ${fieldPaths(body).join(', ') || 'none'}; a bare answer is the secret only in the form whsec_ and 48 hex characters). Rotate again, or read the new secret in the service's console, and put it into the Webhook Secret of the Company Payments API credential used by the Company Payments Trigger.`,
				},
			);
		}
		// The new secret is what this operation is for: its field is opened for the user (not the
		// model), where it stands (`data.webhookSecret` in an envelope: one rule, recordsAnswer.ts).
		// The service's own `notice`, if any, is kept under serviceFields (r12-data, finding 3).
		return reveal(
			withNodeFields(body, {
				notice:
					'The webhook secret was rotated. Put the new webhookSecret into the Webhook Secret of the Company Payments API credential used by the Company Payments Trigger now.',
			}),
			path.join('.'),
		);
	},
};
