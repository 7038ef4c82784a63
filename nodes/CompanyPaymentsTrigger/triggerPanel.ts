import type { TriggerPanelDefinition } from 'n8n-workflow';

/** The README's install section (shipped with the package), which says what holds in queue mode. */
const QUEUE_DOCS = 'https://www.npmjs.com/package/n8n-nodes-company-payments#install-in-n8n';

/**
 * What holds in n8n's queue mode, said where the user builds the workflow; the rest is in the
 * README (shipped with the package) and docs/queue-mode.md.
 */
export const QUEUE_MODE_NOTICE = `A repeated delivery starts nothing in one n8n instance. In queue mode with several webhook workers it can start twice: add the companion package n8n-nodes-company-payments-queue, or n8n's Redis node. <a href="${QUEUE_DOCS}">Details</a>`;

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
