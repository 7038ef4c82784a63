import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { DEFAULT_MAX_AGE_HOURS, DEFAULT_MAX_ENTRIES, staticDataStore } from './deliveries';
import type { DeliveryStore } from './deliveries';
import { ALL_EVENTS, EVENT_OPTIONS, OUTPUTS_EXPRESSION, SUBTITLE_EXPRESSION } from './events';
import { companyPaymentsApiTest } from '../shared/credentialTest';
import { gateError, gateItems, throughGate } from '../shared/gate';
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
				testedBy: 'companyPaymentsApiTest',
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
					"<strong>New node version available:</strong> version 2 of this trigger gives the same output with less of n8n's work per delivery: on n8n 2.36 and later with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE it takes several times the deliveries per second. Add the trigger again from the nodes panel to get it; its Production URL then changes.",
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
					'Whether to give the node one output per selected event, in a fixed order (order, deposits, payouts, card). With "All Events", an extra output "Other" receives event kinds this node does not know yet.',
			},
			{
				displayName: 'Register Webhook URL Automatically',
				name: 'registerWebhook',
				type: 'boolean',
				default: false,
				description:
					"Whether activating the workflow points the company's webhook URL at this trigger (and deactivating puts the previous URL back). Needs an API key with the webhook.manage permission. The company has one webhook URL: whatever received webhooks before stops receiving them while this workflow is active.",
			},
			{
				displayName:
					"Copy this trigger's Production URL (under Webhook URLs above) into the company's webhook URL, e.g. with the Company Payments node (Company → Update Profile), and put the company's webhook secret into the credential's Webhook Secret. To get a test event: the service calls only that one URL, so while you listen here put the Test URL there instead (and the Production URL back after), or turn on the option below, which does both for you.",
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
					"Whether to have the service generate a new webhook secret on activation and keep it in this workflow (the previous secret is still accepted for the grace period). Anything else that verifies the company's webhooks with the old secret stops working. The secret is kept in the workflow's static data, which n8n does not encrypt like credentials. Not done while listening for a test event.",
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
							'Whether to accept deliveries signed with an empty key, which the service does while the company has no webhook secret. Anyone who knows the URL can then send events. Used only while no secret is configured (and for the old empty key during the grace period after a rotation). For first tests only.',
					},
					{
						displayName: 'Deduplication Store Size',
						name: 'dedupMaxEntries',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_MAX_ENTRIES,
						description:
							'How many recent delivery IDs to remember. When full, the oldest are forgotten first. The service retries a delivery for about 7 seconds, so the default covers its retries many times over; n8n rewrites the whole store with every new delivery, so a much larger store slows every delivery down.',
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
							'Whether to add the body exactly as received (UTF-8 text) to the output as `rawBody`, e.g. to archive it or check the signature again. A secret in it (a card number) is masked, and the item then says rawBodyMasked: true.',
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

	methods = {
		credentialTest: { companyPaymentsApiTest },
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

/** The trigger's webhook() over a delivery store. */
export function triggerWebhook(
	store: DeliveryStore,
): (this: IWebhookFunctions) => Promise<IWebhookResponseData> {
	return async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Its doors: the items it hands to the workflow and its log lines, through the gate.
		try {
			const answer = await receive.call(this, store);
			if (answer.workflowData) answer.workflowData = gateItems(this, answer.workflowData);
			return answer;
		} catch (error) {
			throw gateError(this, error);
		}
	};
}
