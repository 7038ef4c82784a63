/**
 * The pictures of the documentation (issue 40): each is a step in the real editor, what the
 * picture must show (elements on screen, never pixels) and the part of the screen it keeps.
 *
 * Two callers run the same steps: `npm run screenshots` (scripts/screenshots.mjs, n8n 2.41.1)
 * writes them to docs/images/, and the browser suite (test/ui/pictures.test.mjs, on every n8n of
 * the browser lane) asserts what each must show, so a step that breaks fails CI before a stale
 * picture could be noticed.
 *
 * Plain JavaScript for the same reason as the rest of harness/.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	backToCanvas,
	canvasNode,
	locatorTexts,
	openLocatorList,
	openNode,
	outputLabels,
	parameter,
	parameterLabel,
	parameterValue,
	SETTLE_MS,
	visibleParameters,
	waitForCanvas,
	waitForText,
} from './editor.mjs';
import { NODE_TYPES, node } from './workflows.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const IMAGES_DIR = path.join(ROOT, 'docs', 'images');
/** Limits of issue 40: each picture, and all of them together. */
export const MAX_PICTURE_BYTES = 150 * 1024;
export const MAX_TOTAL_BYTES = 1024 * 1024;
/** The window the pictures are taken in: the editor's panels fit, the files stay small. */
export const VIEWPORT = { width: 1200, height: 760 };
/** The window of a canvas picture taller than wide. */
const TALL = { width: VIEWPORT.width, height: 1000 };

const MANUAL = "When clicking 'Execute workflow'";
/** The log panel under the canvas is collapsed to its title bar when it is lower than this. */
const LOGS_COLLAPSED_PX = 80;

/** Node names on the pictures' canvases: what a user would call them. */
export const P = Object.freeze({
	balance: 'Company balance',
	events: 'Payment events',
	findPayout: 'Find a payout',
	payContractor: 'Pay a contractor',
	paySupplier: 'Pay a supplier',
	poll: 'Catch up every 15 minutes',
	resolve: 'Was it paid?',
});

/**
 * The payout Resolve Outcome's picture finds: made in the sandbox by that picture's step, then
 * shown to the node as the item Payout Create's error output would carry had its answer been lost.
 */
const RESOLVED_PAYOUT = Object.freeze({
	externalId: 'inv-2077',
	amountRub: 1500,
	requisiteType: 'card',
	requisite: '2200700011184321',
});

/**
 * The unknown item of that payout, as the Unknown Item field holds it (JSON text): what Payout
 * Create's error output carries had it sent this payout with `account` (the pictures'
 * credential) at `sentAt` and lost the answer. Resolve Outcome takes only a sent write this node
 * sealed (nodes/shared/money/binding.ts), so it is sealed the way the node seals one (write.ts):
 * the company fingerprint, the digest of the whole card number, the seal, by the built package's
 * own functions (dist/). The card shows only its last four digits, as the output gate shows it.
 * @param {{ apiKey: string, baseUrl: string }} account
 * @param {string} sentAt before the payout is made (a record made earlier is another payment)
 */
function unknownPayoutItem(account, sentAt) {
	const { companyFingerprint, sealOf } = requireBuilt('dist/nodes/shared/money/binding.js');
	const { requisiteDigest } = requireBuilt('dist/nodes/shared/money/sentEvidence.js');
	const { maskRequisite } = requireBuilt('dist/nodes/shared/gate/index.js');
	const sent = {
		operation: 'payout.create',
		sentAt,
		identity: RESOLVED_PAYOUT.externalId,
		details: {
			amountRub: RESOLVED_PAYOUT.amountRub,
			requisiteType: RESOLVED_PAYOUT.requisiteType,
			requisite: maskRequisite(RESOLVED_PAYOUT.requisite),
			externalId: RESOLVED_PAYOUT.externalId,
		},
		company: companyFingerprint(account.apiKey, account.baseUrl),
		skewMs: 0,
		digests: {
			requisite: requisiteDigest(account.apiKey, 'requisite', RESOLVED_PAYOUT.requisite),
		},
	};
	sent.seal = sealOf(account.apiKey, sent);
	return JSON.stringify(
		{ paymentOutcome: 'unknown', errorCode: 'OUTCOME_UNKNOWN', sentWrite: sent },
		null,
		2,
	);
}

/** A module of the built package (`npm run build` first, as every caller of the pictures does). */
function requireBuilt(file) {
	return createRequire(import.meta.url)(path.join(ROOT, file));
}

/** What the routed trigger's outputs lead to, one node per event kind. */
const FOLLOW_UPS = [
	['order.status_changed', 'Update the order'],
	['deposit.completed', 'Credit the deposit'],
	['deposit.aml_failed', 'Hold for AML review'],
	['payout.status_changed', 'Tell the recipient'],
];

const noOp = (name, position) => node(name, 'n8n-nodes-base.noOp', position);

/**
 * The three workflows the pictures are taken of: a first workflow, the routed trigger, and one
 * that holds the nodes whose panels are shown.
 * @param {{ credential: { id: string, name: string }, versions: Record<string, number>, account: { apiKey: string, baseUrl: string } }} options
 *   `versions`: the newest version of each node type the running n8n offers (new nodes get it);
 *   `account`: the credential's API key and Base URL, which the unknown item is sealed for
 */
export function pictureWorkflows({ credential, versions, account }) {
	const action = { credential, typeVersion: versions.action };
	const first = {
		name: 'My first workflow',
		nodes: [
			node(MANUAL, 'n8n-nodes-base.manualTrigger', [0, 0]),
			node(
				P.balance,
				NODE_TYPES.action,
				[260, 0],
				{ resource: 'companyWallet', operation: 'getBalance' },
				action,
			),
		],
		connections: { [MANUAL]: { main: [[{ node: P.balance, type: 'main', index: 0 }]] } },
	};
	const trigger = node(
		P.events,
		NODE_TYPES.trigger,
		[0, 0],
		{ events: FOLLOW_UPS.map(([event]) => event), routeByEvent: true },
		{ credential, typeVersion: versions.trigger },
	);
	const events = {
		name: 'Payment events',
		nodes: [trigger, ...FOLLOW_UPS.map(([, name], index) => noOp(name, [400, -240 + 160 * index]))],
		connections: {
			[P.events]: {
				main: FOLLOW_UPS.map(([, name]) => [{ node: name, type: 'main', index: 0 }]),
			},
		},
	};
	const payout = (name, position, parameters, extra = {}) => ({
		...node(name, NODE_TYPES.action, position, { resource: 'payout', ...parameters }, action),
		...extra,
	});
	const panels = {
		name: 'Payouts',
		nodes: [
			node(MANUAL, 'n8n-nodes-base.manualTrigger', [0, 0]),
			payout(P.findPayout, [260, -160], { operation: 'get' }),
			// The recipient's card comes from the previous step, as in a real workflow: no full card
			// number is on the picture.
			payout(P.payContractor, [260, 0], {
				operation: 'create',
				amountRub: 1500,
				requisiteType: 'card',
				requisite: '={{ $json.recipientCard }}',
				additionalFields: { externalId: '={{ $json.invoiceId }}' },
			}),
			// More than the sandbox company's balance: the service refuses it, nothing is paid. No
			// External ID: with one, an earlier attempt under it could have taken the funds, so the
			// same refusal is `unknown` (docs/assumptions.md); a first send under a key the node
			// derives is refused plainly, `not_paid`.
			payout(
				P.paySupplier,
				[260, 160],
				{
					operation: 'create',
					amountRub: 250000,
					requisiteType: 'card',
					requisite: '2200 7000 8765 4321',
					additionalFields: {},
				},
				{ onError: 'continueRegularOutput' },
			),
			node(
				P.poll,
				NODE_TYPES.pollTrigger,
				[0, 320],
				{
					pollTimes: { item: [{ mode: 'everyX', value: 15, unit: 'minutes' }] },
					watch: ['payouts', 'disputes', 'companyDeposits', 'balance'],
					balanceThreshold: 500,
				},
				{ credential, typeVersion: versions.pollTrigger },
			),
		],
		connections: {
			[MANUAL]: {
				main: [
					[P.findPayout, P.payContractor, P.paySupplier].map((name) => ({
						node: name,
						type: 'main',
						index: 0,
					})),
				],
			},
		},
	};
	const resolve = {
		name: 'Resolve an unknown payout',
		nodes: [
			node(MANUAL, 'n8n-nodes-base.manualTrigger', [0, 0]),
			node(
				P.resolve,
				NODE_TYPES.action,
				[260, 0],
				{
					resource: 'payment',
					operation: 'resolveOutcome',
					unknownItem: unknownPayoutItem(account, new Date().toISOString()),
				},
				action,
			),
		],
		connections: { [MANUAL]: { main: [[{ node: P.resolve, type: 'main', index: 0 }]] } },
	};
	return { first, events, panels, resolve };
}

/**
 * Makes the payout of RESOLVED_PAYOUT in the sandbox through the service's own API (once per
 * sandbox: a payout already carrying its External ID is kept), and moves it to success.
 */
async function ensureResolvedPayout(sandbox) {
	const headers = { 'content-type': 'application/json', 'x-api-key': sandbox.keys.owner };
	const query = `${sandbox.url}/payouts?externalId=${RESOLVED_PAYOUT.externalId}`;
	const listed = await (await fetch(query, { headers })).json();
	if ((listed.payouts ?? []).length > 0) return listed.payouts[0];
	const created = await fetch(`${sandbox.url}/payouts`, {
		method: 'POST',
		headers: { ...headers, 'idempotency-key': `picture-${RESOLVED_PAYOUT.externalId}` },
		body: JSON.stringify(RESOLVED_PAYOUT),
	});
	const body = await created.json();
	if (!created.ok) throw new Error(`the sandbox refused the payout: ${JSON.stringify(body)}`);
	const payout = body.payout ?? body;
	const moved = await fetch(`${sandbox.url}/__control/payouts/${payout.id}/status`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ status: 'success' }),
	});
	if (!moved.ok) throw new Error(`the sandbox did not move the payout: ${await moved.text()}`);
	return payout;
}

/** The box around a set of boxes, grown by `pad` and kept inside the window. */
function around(boxes, pad = 24, size = VIEWPORT) {
	const present = boxes.filter(Boolean);
	if (present.length === 0) throw new Error('nothing on screen to take a picture of');
	const x = Math.max(0, Math.min(...present.map((b) => b.x)) - pad);
	const y = Math.max(0, Math.min(...present.map((b) => b.y)) - pad);
	const right = Math.min(size.width, Math.max(...present.map((b) => b.x + b.width)) + pad);
	const bottom = Math.min(size.height, Math.max(...present.map((b) => b.y + b.height)) + pad);
	return { x, y, width: right - x, height: bottom - y };
}

/** Whether a box lies within the clip (a field scrolled out of it is not on the picture). */
function inside(box, clip) {
	return (
		Boolean(box) &&
		box.x >= clip.x &&
		box.y >= clip.y &&
		box.x + box.width <= clip.x + clip.width &&
		box.y + box.height <= clip.y + clip.height
	);
}

/**
 * The parameters column of the open panel, from its tabs down to the bottom of `last` (a
 * locator of the last element the picture keeps).
 */
async function parametersClip(page, last) {
	const tabs = await page.getByTestId('tab-params').boundingBox();
	const panel = await page.getByTestId('node-parameters').boundingBox();
	const end = await last.boundingBox();
	const top = Math.max(0, (tabs?.y ?? panel.y) - 12);
	const bottom = Math.min(VIEWPORT.height, end ? end.y + end.height + 10 : VIEWPORT.height);
	return { x: panel.x - 4, y: top, width: panel.width + 8, height: bottom - top };
}

/** Whether two boxes share any point. */
function overlaps(a, b) {
	return (
		Boolean(a && b) &&
		a.x < b.x + b.width &&
		b.x < a.x + a.width &&
		a.y < b.y + b.height &&
		b.y < a.y + a.height
	);
}

/** Checks that collect what a picture lacks instead of stopping at the first. */
function expectations() {
	const missing = [];
	return {
		missing,
		/** `ok` must be true, else `what` is missing from the picture. */
		that(ok, what) {
			if (!ok) missing.push(what);
		},
	};
}

/**
 * The pictures, in the order they are taken. Each `take(ctx)` does the step in the editor and
 * returns `{ clip, missing }`: the part of the window the picture keeps and what it should show
 * but does not (empty when the picture is right). `ctx`: `{ page, open(workflowKey), sandbox }`.
 */
export const PICTURES = [
	{
		file: 'first-workflow.png',
		alt: 'A first workflow in the n8n editor: a Manual Trigger and the Company Payments node "Company balance" ran with 1 item; the log shows the output usdtBalance, frozenBalance, availableBalance',
		async take({ page, open }) {
			await open('first');
			await page.getByTestId('execute-workflow-button').first().click();
			const balance = canvasNode(page, P.balance);
			const check = expectations();
			// Each read waits for what it checks: the editor draws the status, the subtitle and the
			// connection's label one after another, later on a loaded machine.
			for (const name of [MANUAL, P.balance]) {
				const success = canvasNode(page, name).getByTestId('canvas-node-status-success');
				const ran = await waitForText(
					() => success.count(),
					(count) => count > 0,
				);
				check.that(ran > 0, `${name} shows it ran successfully`);
			}
			const subtitle = await waitForText(
				() => balance.innerText(),
				(text) => /Get company balance/i.test(text),
			);
			check.that(
				/Get company balance/i.test(subtitle),
				`the subtitle names the action: "${subtitle}"`,
			);
			const edges = await waitForText(
				() => page.getByTestId('edge-label').allInnerTexts(),
				(texts) => texts.includes('1 item'),
			);
			check.that(
				edges.includes('1 item'),
				`the connection says "1 item": ${JSON.stringify(edges)}`,
			);
			// The log under the canvas, with the node's output: opened once if it is not open.
			const logs = page.getByTestId('logs-panel');
			const details = page.getByTestId('log-details-output');
			await logs.waitFor({ timeout: SETTLE_MS }).catch(() => undefined);
			let opened = false;
			const output = await waitForText(
				async () => {
					if ((await details.count()) > 0) return await details.first().innerText();
					// Collapsed to its title bar: opened, once (a second click would close it).
					const box = await logs.boundingBox().catch(() => null);
					if (!opened && box && box.height < LOGS_COLLAPSED_PX) {
						opened = true;
						await logs.getByText('Logs', { exact: true }).first().click();
					}
					return '';
				},
				(text) => text.includes('availableBalance'),
			);
			for (const field of ['usdtBalance', 'frozenBalance', 'availableBalance']) {
				check.that(output.includes(field), `the output shows ${field}: ${output.slice(0, 200)}`);
			}
			// The window without n8n's sidebar (drawn with the editor, before the canvas).
			const sidebar = await page
				.locator('#sidebar, [data-test-id="main-sidebar"]')
				.first()
				.boundingBox({ timeout: SETTLE_MS })
				.catch(() => null);
			const left = sidebar ? Math.round(sidebar.width) : 0;
			return {
				clip: { x: left, y: 0, width: VIEWPORT.width - left, height: VIEWPORT.height },
				missing: check.missing,
			};
		},
	},
	{
		file: 'payout-picker.png',
		alt: 'Payout picker: each payout as amount in RUB · card masked to •••• 4321 · status · date',
		async take({ page, open }) {
			await open('panels');
			await openNode(page, P.findPayout);
			const shape = /^[\d.]+ RUB · •••• \d{4} · [a-z_]+ · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
			await openLocatorList(page, 'payoutId');
			// The list may fill in more than one step: read until three entries of the shape are there.
			const entries = await waitForText(
				() => locatorTexts(page),
				(texts) => texts.length >= 3 && texts.every((entry) => shape.test(entry)),
			);
			const check = expectations();
			check.that(entries.length >= 3, `at least 3 payouts are listed: ${JSON.stringify(entries)}`);
			check.that(
				entries.every((entry) => shape.test(entry)),
				`every entry is amount · •••• 1234 · status · date: ${JSON.stringify(entries)}`,
			);
			check.that(
				entries.some((entry) => entry.includes('•••• 4321')),
				'a card masked as •••• 4321',
			);
			check.that(!entries.some((entry) => /\d{12,}/.test(entry)), 'no full card or phone number');
			const list = page.locator('[data-test-id="rlc-item"]:visible').first().locator('xpath=../..');
			return {
				clip: around([await parameter(page, 'resource').boundingBox(), await list.boundingBox()]),
				missing: check.missing,
			};
		},
	},
	{
		file: 'payout-create.png',
		alt: 'The Payout → Create panel: Amount (RUB) 1500, Pay To Card Number, the recipient card number and External ID taken from the previous step by expressions',
		async take({ page, open }) {
			await open('panels');
			await openNode(page, P.payContractor);
			const check = expectations();
			const fields = ['amountRub', 'requisiteType', 'requisite'];
			const shown = await waitForText(
				() => visibleParameters(page),
				(names) => fields.every((name) => names.includes(name)),
			);
			for (const name of fields) {
				check.that(shown.includes(name), `the field ${name}: ${JSON.stringify(shown)}`);
			}
			const labels = [];
			for (const name of shown.filter((n) => !['resource', 'operation'].includes(n))) {
				labels.push(await parameterLabel(page, name).catch(() => ''));
			}
			check.that(
				labels.some((label) => /Amount \(RUB\)/.test(label)),
				`the label Amount (RUB): ${JSON.stringify(labels)}`,
			);
			check.that(!labels.some((label) => /requisite/i.test(label)), 'no label says "Requisite"');
			const operation = await waitForText(
				() => parameterValue(page, 'operation').catch(() => ''),
				(value) => value === 'Create',
			);
			check.that(operation === 'Create', `Operation is Create: "${operation}"`);
			// From the panel's tabs down to the recipient's optional fields (Add Field).
			const add = page.getByTestId('collection-parameter-add').first();
			await add.waitFor({ timeout: SETTLE_MS }).catch(() => undefined);
			return { clip: await parametersClip(page, add), missing: check.missing };
		},
	},
	{
		file: 'money-error.png',
		alt: 'A refused payout as its output item: INSUFFICIENT_BALANCE, the service message, HTTP 422, request ID, paymentOutcome "not_paid"',
		async take({ page, open }) {
			await open('panels');
			await openNode(page, P.paySupplier);
			await page.getByTestId('node-execute-button').click();
			const output = page.getByTestId('output-panel');
			await output.getByText('paymentOutcome').first().waitFor({ timeout: 60_000 });
			// Every field of the item on one screen, one per line: the Schema view.
			const schema = output.getByTestId('radio-button-schema');
			if ((await schema.getAttribute('aria-checked')) !== 'true') await schema.click();
			await output.getByText('not_paid', { exact: true }).first().waitFor();
			const text = await waitForText(
				() => output.innerText(),
				(shown) => /paymentOutcome"?:?\s*"?not_paid/.test(shown),
			);
			const check = expectations();
			for (const [pattern, what] of [
				[/paymentOutcome"?:?\s*"?not_paid/, 'paymentOutcome: not_paid'],
				[/INSUFFICIENT_BALANCE/, 'the errorCode'],
				[/Недостаточно средств/, "the service's message"],
				[/422/, 'the HTTP status'],
				[/requestId/, 'the request ID'],
			]) {
				check.that(pattern.test(text), `${what} is shown: ${text.slice(0, 400)}`);
			}
			check.that(!/\b2200 ?7000 ?8765 ?4321\b/.test(text), 'the card number is masked');
			const fields = ['paymentOutcome', 'not_paid', 'requestId', 'errorCode'];
			for (const field of fields) {
				await output
					.getByText(field, { exact: true })
					.first()
					.waitFor({ timeout: SETTLE_MS })
					.catch(() => undefined);
			}
			const clip = around([await output.boundingBox()], 0);
			for (const field of fields) {
				const box = await output.getByText(field, { exact: true }).first().boundingBox();
				check.that(inside(box, clip), `${field} is on the picture, not scrolled away`);
			}
			return { clip, missing: check.missing };
		},
	},
	{
		file: 'trigger-outputs.png',
		alt: 'The Company Payments Trigger on the canvas with one output per picked event, labelled Order, Credited, AML failed and Payout, each leading to its own next step',
		async take({ page, open }) {
			await open('events');
			// A taller window for this one: the fitted canvas keeps the four steps apart and clear of
			// the Execute workflow button (takePicture sets the window back).
			await page.setViewportSize(TALL);
			const steps = [P.events, ...FOLLOW_UPS.map(([, name]) => name)];
			await page.getByTestId('zoom-to-fit').first().click();
			const fitted = await waitForCanvas(page, steps);
			// One step out: a margin around the steps however the fit turned out.
			await page.getByTestId('zoom-out-button').first().click();
			await waitForCanvas(page, steps, { changedFrom: fitted });
			const trigger = canvasNode(page, P.events);
			const labels = await waitForText(
				() => outputLabels(page, P.events),
				(shown) => shown.length === FOLLOW_UPS.length && shown.every(({ text }) => text !== ''),
			);
			const check = expectations();
			check.that(
				labels.length === FOLLOW_UPS.length,
				`${FOLLOW_UPS.length} outputs: ${JSON.stringify(labels)}`,
			);
			check.that(
				labels.every(({ text }) => !/^[a-z]+\.[a-z_]+$/.test(text)),
				`the labels are words, not event codes: ${JSON.stringify(labels)}`,
			);
			const visible = labels.map(({ visible: v }) => v.toLowerCase());
			check.that(
				new Set(visible).size === visible.length,
				`the labels stay distinct: ${JSON.stringify(visible)}`,
			);
			const boxes = [await trigger.boundingBox()];
			for (const [, name] of FOLLOW_UPS) boxes.push(await canvasNode(page, name).boundingBox());
			check.that(boxes.every(Boolean), 'every next step is on screen');
			// Wide margins: the trigger's subtitle and the outputs' stubs reach past the nodes.
			const clip = around(boxes, 72, page.viewportSize());
			// The canvas's Execute workflow button sits below the steps: the picture ends above it.
			const button = await page.getByTestId('execute-workflow-button').first().boundingBox();
			if (overlaps(button, clip)) clip.height = Math.max(0, button.y - 8 - clip.y);
			check.that(
				boxes.every((box) => inside(box, clip)),
				'the trigger and its next steps are clear of the Execute workflow button',
			);
			return { clip, missing: check.missing };
		},
	},
	{
		file: 'poll-trigger.png',
		alt: 'The Company Payments Poll Trigger panel: polls every 15 minutes and watches Payouts, Disputes, Company Deposits and Company Balance Below Threshold (500 USDT)',
		async take({ page, open }) {
			await open('panels');
			await openNode(page, P.poll);
			const check = expectations();
			const fields = ['watch', 'balanceThreshold'];
			const shown = await waitForText(
				() => visibleParameters(page),
				(names) => fields.every((name) => names.includes(name)),
			);
			const watched = ['Payouts', 'Disputes', 'Company Deposits'];
			const panel = await waitForText(
				() => page.getByTestId('node-parameters').innerText(),
				(text) => watched.every((name) => text.includes(name)),
			);
			const clip = await parametersClip(page, parameter(page, 'balanceThreshold'));
			for (const name of fields) {
				check.that(shown.includes(name), `the field ${name}: ${JSON.stringify(shown)}`);
				const box = await parameter(page, name).boundingBox();
				check.that(inside(box, clip), `${name} is on the picture`);
			}
			for (const name of watched) {
				check.that(panel.includes(name), `Watch shows ${name}`);
			}
			return { clip, missing: check.missing };
		},
	},
	{
		file: 'credential-test.png',
		alt: 'The Company Payments API credential with a wrong API key (n8n 2.41.1): the test fails with HTTP 401, the API key was refused, and names the errorCodes a 401 can carry',
		async take({ page, open, sandbox }) {
			await open('panels');
			await openNode(page, P.findPayout);
			await page.getByTestId('node-credentials-select').click();
			await page.getByText('Create new credential').first().click();
			const modal = page.getByTestId('editCredential-modal');
			await modal.waitFor();
			await modal.getByTestId('parameter-input-environment').click();
			await page
				.locator('.el-select-dropdown:visible')
				.getByRole('option', { name: 'Staging' })
				.click();
			await modal.getByTestId('parameter-input-baseUrl').locator('input').fill(sandbox.url);
			await modal
				.getByTestId('parameter-input-apiKey')
				.locator('input')
				.fill('sk_live_2f9c0d7e4b1a');
			await modal.getByTestId('credential-save-button').click();
			await modal
				.getByText(/Couldn.t connect with these settings/)
				.first()
				.waitFor({ timeout: 30_000 });
			const text = await waitForText(
				async () => {
					const details = modal.getByText('More details');
					if (await details.isVisible()) await details.click();
					return await modal.getByTestId('node-credentials-config-container').innerText();
				},
				(shown) => /HTTP 401: the API key was refused|Authorization failed/.test(shown),
			);
			const check = expectations();
			// n8n 2.41.1 (the pictures' version) shows the credential's status rule; n8n 2.8.4
			// keeps no response in its error and shows its own text for a 401 (nodes/shared/credentialTest.ts).
			check.that(
				/HTTP 401: the API key was refused \(the service says INVALID_API_KEY/.test(text) ||
					/Authorization failed - please check your credentials/.test(text),
				`the test fails on the 401: ${text.slice(0, 300)}`,
			);
			check.that(!text.includes('sk_live_2f9c0d7e4b1a'), 'the key is not shown');
			// Whether the modal holds an inner dialog box is how the n8n version builds it, not
			// something still being drawn (the modal's texts were waited for above): counted once.
			const dialog = modal.locator('.el-dialog').first();
			const box =
				(await dialog.count()) > 0 ? await dialog.boundingBox() : await modal.boundingBox();
			return { clip: around([box], 0), missing: check.missing };
		},
	},
	{
		file: 'resolve-outcome.png',
		alt: 'Payment → Resolve Outcome ran on an unknown Payout Create item: paymentOutcome "paid", with the payout found by its External ID inv-2077, status success',
		async take({ page, open, sandbox }) {
			await ensureResolvedPayout(sandbox);
			await open('resolve');
			await openNode(page, P.resolve);
			await page.getByTestId('node-execute-button').click();
			const output = page.getByTestId('output-panel');
			await output.getByText('paymentOutcome').first().waitFor({ timeout: 60_000 });
			// Every field of the item on one screen, one per line: the Schema view.
			const schema = output.getByTestId('radio-button-schema');
			if ((await schema.getAttribute('aria-checked')) !== 'true') await schema.click();
			const paid = /paymentOutcome"?:?\s*"?paid\b/;
			const text = await waitForText(
				() => output.innerText(),
				(shown) => paid.test(shown) && shown.includes(RESOLVED_PAYOUT.externalId),
			);
			const check = expectations();
			for (const [pattern, what] of [
				[paid, 'paymentOutcome: paid'],
				[/payout\.create/, 'the operation it resolved'],
				[/externalId"?:?\s*"?inv-2077/, "the payout's externalId"],
				[/status"?:?\s*"?success/, "the payout's status"],
			]) {
				check.that(pattern.test(text), `${what} is shown: ${text.slice(0, 600)}`);
			}
			// The node ran: its output panel counts the one item it answered.
			check.that(/\b1 item\b/.test(text), `the output says "1 item": ${text.slice(0, 200)}`);
			check.that(
				!text.includes(RESOLVED_PAYOUT.requisite),
				"the recipient's card number is not shown in full",
			);
			const fields = ['paymentOutcome', 'paid', 'externalId', 'inv-2077', 'status', 'success'];
			const clip = around([await output.boundingBox()], 0);
			for (const field of fields) {
				// Drawn already when the text above has it; one that is not is reported, not thrown.
				const box = await output
					.getByText(field, { exact: true })
					.first()
					.boundingBox({ timeout: SETTLE_MS })
					.catch(() => null);
				check.that(inside(box, clip), `${field} is on the picture, not scrolled away`);
			}
			return { clip, missing: check.missing };
		},
	},
];

/** Node type versions the pictures use: the newest the running n8n offers, as the node panel adds. */
export async function newestVersions(n8n) {
	const types = await n8n.listNodeTypes();
	const newest = (name) =>
		Math.max(...types.filter((t) => t.name === name).flatMap((t) => [t.version].flat()));
	return {
		action: newest(NODE_TYPES.action),
		trigger: newest(NODE_TYPES.trigger),
		pollTrigger: newest(NODE_TYPES.pollTrigger),
	};
}

/**
 * Creates the pictures' workflows in n8n and returns `open(key)`, which shows one of them in the
 * editor (loaded once; later switches go through the editor's own router, not a page load).
 */
export async function pictureSession(stack, { whileBusy }) {
	const versions = await whileBusy(() => newestVersions(stack.n8n));
	const { apiKey, baseUrl } = pictureCredentials(stack.sandbox).good.data;
	const workflows = pictureWorkflows({
		credential: stack.credentials.good,
		versions,
		account: { apiKey, baseUrl },
	});
	const ids = {};
	for (const [key, workflow] of Object.entries(workflows)) {
		const saved = await whileBusy(() =>
			stack.n8n.rest('POST', '/workflows', { ...workflow, settings: { executionOrder: 'v1' } }),
		);
		ids[key] = saved.id;
	}
	const { page } = stack;
	await page.setViewportSize(VIEWPORT);
	let current;
	let loaded = false;
	const open = async (key) => {
		if (current === key) {
			await backToCanvas(page);
			return;
		}
		const url = `${stack.n8n.url}/workflow/${ids[key]}`;
		if (!loaded) {
			await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
			loaded = true;
		} else {
			await backToCanvas(page);
			// The editor's router follows history changes: another workflow without a page load.
			await page.evaluate((target) => {
				window.history.pushState({}, '', target);
				window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
			}, new URL(url).pathname);
		}
		await page.getByTestId('canvas-node').first().waitFor({ timeout: 120_000 });
		// The canvas fits the workflow to the window once its nodes are measured: every node is
		// drawn inside it and the fit has stopped moving.
		await waitForCanvas(
			page,
			workflows[key].nodes.map(({ name }) => name),
			{ timeout: 120_000 },
		);
		current = key;
	};
	return { page, open, sandbox: stack.sandbox };
}

/** Takes one picture: runs its step, and saves the kept part of the window as `dir/<file>`. */
export async function takePicture(ctx, picture, dir) {
	const { clip, missing } = await picture.take(ctx);
	const { page } = ctx;
	// No hover toolbar on the picture: the pointer rests on the window's corner.
	await page.mouse.move(VIEWPORT.width - 1, VIEWPORT.height - 1);
	// n8n's notices ("Node executed successfully") cover what the picture is about: closed.
	const toasts = page.locator('.el-notification:visible');
	for (let i = 0; i < 5 && (await toasts.count()) > 0; i++) {
		const toast = await toasts.first().elementHandle();
		await toast
			.$('.el-notification__closeBtn')
			.then((button) => button?.click())
			.catch(() => undefined);
		// Gone before the next one is looked at (it slides away).
		await toast.waitForElementState('hidden', { timeout: SETTLE_MS }).catch(() => undefined);
	}
	for (const toast of await toasts.all()) {
		if (overlaps(await toast.boundingBox(), clip)) missing.push('no notice covers the picture');
	}
	// The pointer has left every node: no node's hover toolbar is drawn.
	await page.waitForFunction(
		() => document.querySelectorAll('.vue-flow__node:hover').length === 0,
		undefined,
		{
			timeout: SETTLE_MS,
		},
	);
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, picture.file);
	await ctx.page.screenshot({ path: file, clip, animations: 'disabled', caret: 'hide' });
	const bytes = fs.statSync(file).size;
	await ctx.page.setViewportSize(VIEWPORT);
	await backToCanvas(ctx.page).catch(() => undefined);
	return { file, bytes, missing, clip };
}

/** The credential the pictures' nodes use: the sandbox company's owner key, on Staging. */
export function pictureCredentials(sandbox) {
	return {
		good: {
			name: 'Company Payments account',
			data: {
				environment: 'staging',
				baseUrl: sandbox.url,
				apiKey: sandbox.keys.owner,
				webhookSecret: `whsec_${randomBytes(24).toString('hex')}`,
			},
		},
	};
}
