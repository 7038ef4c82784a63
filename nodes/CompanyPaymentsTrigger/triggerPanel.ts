import type { TriggerPanelDefinition } from 'n8n-workflow';

/**
 * What holds in n8n's queue mode, said where the user builds the workflow (docs/queue-mode.md).
 */
export const QUEUE_MODE_NOTICE =
	"Exactly once within one n8n process: a delivery sent again is answered 200 and starts nothing. In queue mode with several webhook processes (or several mains), each keeps its own record, so a delivery that reaches two of them at once can start two executions. For exactly once there: install the self-hosted companion package n8n-nodes-company-payments-queue (it claims each delivery in Redis), or follow this trigger with n8n's Redis node (Increment on the item's changeKey, with an expiry) and an If that goes on only when the count is 1. See docs/queue-mode.md of the package.";

/**
 * The panel n8n shows while the trigger waits for an event: step by step, how to get a test
 * event from the service, which calls one webhook URL per company.
 */
export const TRIGGER_PANEL: TriggerPanelDefinition = {
	header: 'Waiting for an event from Company Payments',
	executionsHelp: {
		inactive:
			"<b>To get a test event:</b><br />1. Turn on <i>Register Webhook URL Automatically</i> (needs an API key with webhook.manage), or copy this node's <b>Test URL</b> into the company's webhook URL yourself (Company Payments node: Company → Update Profile).<br />2. Click <b>Execute step</b> (listen) here.<br />3. Cause an event in the service, e.g. change an order's status or create a payout.<br />4. The event shows up in this editor. Put the Production URL back afterwards if you set the URL yourself.<br /><br /><b>Once the workflow is ready</b>, publish it: every event then starts an execution, listed under executions, not shown here. In queue mode with several webhook processes, a delivery can start twice: see the note in the parameters.",
		active:
			"<b>To get a test event:</b> click <b>Execute step</b> (listen) here, with the company's webhook URL set to this node's <b>Test URL</b> (done for you when <i>Register Webhook URL Automatically</i> is on), then cause an event in the service, e.g. change an order's status.<br /><br />The workflow is active, so events sent to the Production URL start executions, listed in the <a data-key='executions'>executions list</a>, not shown here.",
	},
	activationHint:
		"Once you have finished building your workflow, publish it and point the company's webhook URL at the Production URL to have it run on every event.",
};
