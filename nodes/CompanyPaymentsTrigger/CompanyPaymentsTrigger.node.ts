import type {
	ICredentialTestFunction,
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { DEFAULT_MAX_AGE_HOURS, DEFAULT_MAX_ENTRIES, staticDataStore } from './deliveries';
import type { DeliveryStore } from './deliveries';
import { ALL_EVENTS, EVENT_OPTIONS, OUTPUTS_EXPRESSION, SUBTITLE_EXPRESSION } from './events';
import { gateError, gateItems, gateText, throughGate } from '../shared/gate';
import { checkExists, create, remove } from './lifecycle';
import { DEFAULT_GRACE_MINUTES, receive } from './receive';
import { QUEUE_MODE_NOTICE, TRIGGER_PANEL } from './triggerPanel';

export class CompanyPaymentsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Company Payments Trigger',
		name: 'companyPaymentsTrigger',
		icon: {
			light: 'file:../../icons/companyPayments.svg',
			dark: 'file:../../icons/companyPayments.dark.svg',
		},
		group: ['trigger'],
		// Version 2 only changes what n8n does before the node runs: for a typeVersion-1 start node
		// n8n evaluates the expression `$parameter["options"]["binaryData"]` on every request (an
		// expression sandbox on n8n 2.41, about 10 ms), for later versions it does not, and leaves
		// bodies of content types it does not parse unread, which receive() then reads itself.
		// Saved workflows keep version 1 and work as before; new nodes open on version 2.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: SUBTITLE_EXPRESSION,
		description:
			'Starts the workflow on order, deposit, payout and card events of your company payments account, verified and deduplicated',
		defaults: {
			name: 'Company Payments Trigger',
		},
		triggerPanel: TRIGGER_PANEL,
		inputs: [],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [
			{
				name: 'companyPaymentsApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				// n8n decides before the node runs: for a saved typeVersion-1 start node it evaluates
				// `$parameter["options"]["binaryData"]` as an expression on every request
				// (webhook-helpers.js parseRequestBody, `nodeVersion === 1`), which on n8n 2.36 and
				// later builds an expression sandbox even with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE.
				// Nothing in this description changes that (docs/performance.md), so version 1 nodes
				// are offered the newer version, the way n8n's own nodes do it.
				displayName:
					"<strong>New node version available:</strong> version 2 gives the same output with less of n8n's work per delivery (several times the deliveries per second on n8n 2.36+ with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE). Add the trigger again to get it; its Production URL changes.",
				name: 'versionNotice',
				type: 'notice',
				default: '',
				displayOptions: {
					show: {
						'@version': [1],
					},
				},
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_OPTIONS,
				default: [ALL_EVENTS],
				required: true,
				description:
					'Events that start the workflow. Others are answered 200 and start nothing. "All Events" also passes event kinds the service adds later.',
			},
			{
				displayName: 'Route Events to Separate Outputs',
				name: 'routeByEvent',
				type: 'boolean',
				default: false,
				description:
					'Whether to give the node one output per selected event, in a fixed order. With "All Events", a last output "Other" receives event kinds this node version has no output for; outputs never move within a node version.',
			},
			{
				displayName: 'Register Webhook URL Automatically',
				name: 'registerWebhook',
				type: 'boolean',
				default: false,
				description:
					"Whether activating the workflow points the company's one webhook URL at this trigger (deactivating puts the previous URL back); whatever received webhooks before stops receiving them. Needs the webhook.manage permission.",
			},
			{
				displayName:
					"Copy the Production URL (Webhook URLs above) into the company's webhook URL (Company → Update Profile) and its webhook secret into the credential. For a test event put the Test URL there while you listen, or turn on the option below, which does both.",
				name: 'manualRegistrationNotice',
				type: 'notice',
				default: '',
				displayOptions: {
					show: {
						registerWebhook: [false],
					},
				},
			},
			{
				displayName:
					"While you listen for a test event, the company's webhook URL points at this trigger's Test URL, and it is put back when listening stops. Then cause an event in the service, e.g. change an order's status.",
				name: 'testEventNotice',
				type: 'notice',
				default: '',
				displayOptions: {
					show: {
						registerWebhook: [true],
					},
				},
			},
			{
				displayName: 'Rotate Webhook Secret',
				name: 'rotateSecret',
				type: 'boolean',
				default: false,
				displayOptions: {
					show: {
						registerWebhook: [true],
					},
				},
				description:
					'Whether the service makes a new webhook secret on activation, kept sealed in static data (weaker than a credential); the old one stops after the grace period. <a href="https://www.npmjs.com/package/n8n-nodes-company-payments#triggers">Details</a>.',
			},
			{
				displayName: QUEUE_MODE_NOTICE,
				name: 'queueModeNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Accept Deliveries Signed With Empty Key (Insecure)',
						name: 'allowEmptyKey',
						type: 'boolean',
						default: false,
						description:
							'Whether to accept deliveries signed with an empty key, as the service sends while the company has no webhook secret: anyone who knows the URL can then send events. Used only while no secret is set. For first tests only.',
					},
					{
						displayName: 'Deduplication Store Size',
						name: 'dedupMaxEntries',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_MAX_ENTRIES,
						description:
							'How many recent delivery IDs to remember; the oldest are forgotten first. The service retries for about 7 seconds, which the default covers many times over; n8n rewrites the store per delivery, so a larger one is slower.',
					},
					{
						displayName: 'Deduplication Window (Hours)',
						name: 'dedupMaxAgeHours',
						type: 'number',
						typeOptions: { minValue: 0.01, numberPrecision: 2 },
						default: DEFAULT_MAX_AGE_HOURS,
						description:
							'How long a delivery ID is remembered. The service retries a delivery for about 7 seconds.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output as `headers` (Authorization, Cookie and X-API-Key are left out)',
					},
					{
						displayName: 'Include Raw Body',
						name: 'includeRawBody',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the body exactly as received (UTF-8 text) to the output as `rawBody`, e.g. to archive it or check the signature again. A body that carries a secret (a card number) is withheld (null), and the item then says rawBodyMasked: true and why.',
					},
					{
						displayName: 'Previous Secret Grace Period (Minutes)',
						name: 'graceMinutes',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_GRACE_MINUTES,
						description:
							"For how long after a rotation made by this trigger (Rotate Webhook Secret) deliveries signed with the replaced secret are still accepted, counted from the rotation. For a secret replaced by hand, use the credential's Previous Webhook Secret.",
					},
				],
			},
		],
	};

	/**
	 * The API credential is tested by its own `test` request (credentials/). This is where the
	 * queue-mode companion, which builds this class, adds the test of its Redis credential.
	 */
	methods: { credentialTest: Record<string, ICredentialTestFunction> } = {
		credentialTest: {},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await throughGate(this, checkExists);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await throughGate(this, create);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await throughGate(this, remove);
			},
		},
	};

	/**
	 * Receives one delivery. A property rather than a method: n8n calls it with its webhook
	 * context as `this`, so the delivery store is bound here, when the node type is built. The
	 * queue-mode companion package builds this same class with its Redis store.
	 */
	webhook: (this: IWebhookFunctions) => Promise<IWebhookResponseData> =
		triggerWebhook(staticDataStore);
}

/**
 * What an item says when its delivery was answered 200 and recorded but the item could not be
 * put through the gate: the delivery is not lost (a retry would be "received before").
 */
export const DELIVERY_NOT_SHOWN_NOTE =
	'This delivery was verified, answered 200 and recorded, but its body could not be shown: masking it failed. The body is withheld; the event, the delivery ID and the error say what arrived.';

/**
 * The delivery's items through the gate. The HTTP answer (200) is already sent and the delivery
 * ID recorded, so a failure here must not lose the delivery: each item that cannot be shown comes
 * out as an item naming the error, with the body withheld (issue 50, outside read r12-data).
 */
function deliveredItems(
	ctx: IWebhookFunctions,
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	try {
		return gateItems(ctx, outputs);
	} catch (error) {
		return outputs.map((items) =>
			items.map((item) => {
				const json = item.json;
				const withheld: IDataObject = {
					event: typeof json.event === 'string' ? json.event : null,
					deliveryId: typeof json.deliveryId === 'string' ? json.deliveryId : null,
					receivedAt: typeof json.receivedAt === 'string' ? json.receivedAt : null,
					deduplicationChecked: json.deduplicationChecked === true,
					source: 'webhook',
					bodyWithheld: true,
					error: gateText(ctx, `masking failed: ${(error as Error)?.message ?? String(error)}`),
					note: DELIVERY_NOT_SHOWN_NOTE,
				};
				return { json: withheld };
			}),
		);
	}
}

/** The trigger's webhook() over a delivery store. */
export function triggerWebhook(
	store: DeliveryStore,
): (this: IWebhookFunctions) => Promise<IWebhookResponseData> {
	return async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Its doors: the items it hands to the workflow and its log lines, through the gate.
		try {
			const answer = await receive.call(this, store);
			if (answer.workflowData) answer.workflowData = deliveredItems(this, answer.workflowData);
			return answer;
		} catch (error) {
			throw gateError(this, error);
		}
	};
}
