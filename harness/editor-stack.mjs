/**
 * The stack the browser tests drive: the sandbox of the payments service, one real n8n 2.8.4
 * with the built package, the credentials and workflows the tests open, and the machine's
 * Chromium through playwright-core (Playwright's own browser download cannot work here; see
 * scripts/ensure-chromium.sh).
 *
 * Everything listens on 127.0.0.1. `stopStack()` stops n8n and Chromium by their handles (PIDs),
 * closes the sandbox and deletes the n8n user folder and the browser profile.
 *
 * Plain JavaScript: the n8n linter forbids process, fs and child_process in TypeScript.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { startSandbox } from '../sandbox/server.mjs';
import * as host from './n8n.mjs';
import { assertBuilt, e2eStack } from './stack.mjs';
import { node, NODE_TYPES } from './workflows.mjs';

export const CHROMIUM = process.env.COMPANY_PAYMENTS_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(
	path.dirname(fileURLToPath(import.meta.url)),
	'..',
	'test',
	'ui',
	'.screenshots',
);
export const NODE_TYPE = NODE_TYPES.action;
export const TRIGGER_TYPE = NODE_TYPES.trigger;
export const POLL_TRIGGER_TYPE = NODE_TYPES.pollTrigger;
export const { OWNER } = host;

const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** An n8n workflow id (16 alphanumerics). */
export const newId = host.newN8nId;

export { node };

/**
 * Starts the sandbox and n8n, creates the credentials that `credentials(sandbox)` returns
 * (through n8n's REST API, as the editor does: one n8n CLI call less), and launches Chromium
 * with a fresh profile, signed in as the owner.
 *
 * @param {{ credentials?: (sandbox) => Record<string, { name: string, data: object }>, sandbox?: object }} [options]
 *   `sandbox`: options of startSandbox
 */
export async function startStack({ credentials = () => ({}), sandbox = {} } = {}) {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`${CHROMIUM} is missing: run scripts/ensure-chromium.sh (installs Debian's chromium), or set COMPANY_PAYMENTS_CHROMIUM`,
		);
	}
	assertBuilt();
	const pkg = JSON.parse(fs.readFileSync(path.join(host.PACKAGE_ROOT, 'package.json'), 'utf8'));
	// n8n, the sandbox and the user folder: the set-up of every e2e suite (harness/stack.mjs).
	const e2e = e2eStack('ui');
	const stack = { timings: {}, pkg, e2e };
	try {
		const t1 = Date.now();
		await e2e.prepare();
		stack.userFolder = e2e.userFolder;
		stack.sandbox = await e2e.service(startSandbox(sandbox));
		// n8n's log outlives the user folder, next to the screenshots, for a failed run: copied
		// after n8n stopped and before the folder goes (stop() runs newest first).
		e2e.onStop(() => keepLog(stack.n8n));
		stack.n8n = await e2e.startN8n();
		// Creates the owner account (first call on a new folder), so the browser can sign in.
		await whileBusy(() => stack.n8n.rest('GET', '/login'));
		stack.credentials = {};
		for (const [key, spec] of Object.entries(credentials(stack.sandbox))) {
			const body = { type: 'companyPaymentsApi', ...spec };
			const saved = await whileBusy(() => stack.n8n.rest('POST', '/credentials', body));
			stack.credentials[key] = { id: saved.id, name: saved.name };
		}
		stack.timings.n8nStartMs = Date.now() - t1;

		const t2 = Date.now();
		stack.profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-ui-chromium-'));
		stack.context = await chromium.launchPersistentContext(stack.profileDir, {
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
			locale: 'en-US',
			timezoneId: 'UTC',
		});
		stack.context.setDefaultTimeout(30_000);
		await whileBusy(async () => {
			const login = await stack.context.request.post(`${stack.n8n.url}/rest/login`, {
				data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
			});
			if (!login.ok()) throw new Error(`browser login: ${login.status()} ${await login.text()}`);
		});
		stack.page = stack.context.pages()[0] ?? (await stack.context.newPage());
		await slowDown(stack);
		stack.timings.browserMs = Date.now() - t2;
		fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
		return stack;
	} catch (error) {
		await stopStack(stack);
		throw error;
	}
}

/**
 * Slows the editor down as a machine loaded by other lanes does, so that a step which reads the
 * screen before the editor has drawn what it checks fails on any machine (issue 46):
 * - COMPANY_PAYMENTS_UI_CPU_THROTTLE=<rate>: the page runs <rate> times slower (Chrome's CPU
 *   throttling);
 * - COMPANY_PAYMENTS_UI_LATE_EDGE_LABELS_MS=<ms>: a connection's label on the canvas ("1 item")
 *   shows <ms> after the editor wrote it, as CI saw on a loaded machine (the node already showed
 *   success, the label was still empty).
 */
async function slowDown(stack) {
	const rate = Number(process.env.COMPANY_PAYMENTS_UI_CPU_THROTTLE ?? '1');
	if (rate > 1) {
		const cdp = await stack.context.newCDPSession(stack.page);
		await cdp.send('Emulation.setCPUThrottlingRate', { rate });
		stack.timings.cpuThrottle = rate;
	}
	const lateMs = Number(process.env.COMPANY_PAYMENTS_UI_LATE_EDGE_LABELS_MS ?? '0');
	if (lateMs > 0) {
		await stack.page.addInitScript((delay) => {
			const hide = () => {
				if (document.getElementById('cp-late-labels')) return;
				const style = document.createElement('style');
				style.id = 'cp-late-labels';
				style.textContent = '[data-cp-late] > * { display: none !important; }';
				document.head.append(style);
			};
			const seen = new WeakMap();
			new MutationObserver(() => {
				hide();
				for (const label of document.querySelectorAll('[data-test-id="edge-label"]')) {
					const text = label.textContent.trim();
					if (text === '' || seen.get(label) === text) continue;
					seen.set(label, text);
					label.setAttribute('data-cp-late', '');
					setTimeout(() => label.removeAttribute('data-cp-late'), delay);
				}
			}).observe(document, { subtree: true, childList: true, characterData: true });
		}, lateMs);
		stack.timings.lateEdgeLabelsMs = lateMs;
	}
}

/**
 * Retries a call while n8n answers 503 or drops the connection. On a loaded machine n8n 2.8.4
 * reports "Database is not ready!" for a while after its ready line (its database health check
 * times out), which is no fault of the package.
 */
export async function whileBusy(call, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await call();
		} catch (error) {
			const busy = /\b503\b|fetch failed|ECONNRESET|socket hang up/.test(String(error?.message));
			if (!busy || Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
}

function keepLog(n8n) {
	if (n8n?.logFile && fs.existsSync(n8n.logFile)) {
		fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
		fs.copyFileSync(n8n.logFile, path.join(SCREENSHOT_DIR, 'n8n.log'));
	}
}

export async function stopStack(stack) {
	if (!stack) return;
	await stack.context?.close().catch(() => undefined);
	if (stack.profileDir) fs.rmSync(stack.profileDir, { recursive: true, force: true });
	await stack.e2e.stop();
}

/** Saves a full-page screenshot as test/ui/.screenshots/<name>.png and returns its path. */
export async function screenshot(page, name) {
	const file = path.join(SCREENSHOT_DIR, `${name}.png`);
	await page.screenshot({ path: file, fullPage: false });
	return file;
}
