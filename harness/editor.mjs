/**
 * What the browser tests do in n8n's editor, by the `data-test-id` attributes n8n's own
 * Playwright tests use (packages/testing/playwright in n8n-io/n8n), checked against n8n 2.8.4.
 * Every helper waits for what it needs; nothing sleeps for a fixed time.
 */
import { selectors } from 'playwright-core';

// n8n marks its elements with data-test-id (Playwright's default is data-testid).
selectors.setTestIdAttribute('data-test-id');

export function canvasNode(page, name) {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Loads a workflow in the editor and waits for its canvas. */
export async function openWorkflow(page, url, workflowId) {
	await page.goto(`${url}/workflow/${workflowId}`, {
		waitUntil: 'domcontentloaded',
		timeout: 120_000,
	});
	await page.getByTestId('canvas-node').first().waitFor({ timeout: 120_000 });
}

/**
 * Closes whatever dropdown, dialog, node panel or node creator is open, back to the bare canvas.
 * Each step waits until what it closed is gone before looking at the next.
 */
export async function backToCanvas(page, timeout = 30_000) {
	for (let i = 0; i < 6; i++) {
		let open;
		const dropdown = page.locator('.el-select-dropdown:visible');
		const modal = page.getByTestId('editCredential-modal');
		const ndv = page.getByTestId('ndv-close-button');
		const creator = page.getByTestId('node-creator');
		if ((await dropdown.count()) > 0) {
			open = dropdown.first();
			await page.keyboard.press('Escape');
		} else if (await modal.isVisible()) {
			open = modal;
			await modal.locator('.el-dialog__headerbtn, .el-dialog__close').first().click();
		} else if (await ndv.isVisible()) {
			open = ndv;
			await ndv.click();
		} else if (await creator.isVisible()) {
			open = creator;
			await page.keyboard.press('Escape');
		} else {
			return;
		}
		// A step that did not close it is tried again (up to six), as a user would.
		await open.waitFor({ state: 'hidden', timeout }).catch(() => undefined);
	}
	throw new Error('could not get back to the canvas (a panel or dialog stays open)');
}

/** Opens a node's panel (NDV) from the canvas, as a user does with a double click. */
export async function openNode(page, name) {
	await backToCanvas(page);
	await canvasNode(page, name).dblclick();
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('node-parameters').waitFor();
	return page.getByTestId('node-parameters');
}

export function parameter(page, name) {
	return page.getByTestId('node-parameters').getByTestId(`parameter-input-${name}`);
}

/** Names of the parameters shown in the open panel, in order, as they are now. */
export async function visibleParameters(page) {
	const ids = await page
		.getByTestId('node-parameters')
		.locator('[data-test-id^="parameter-input-"]:visible')
		.evaluateAll((elements) => elements.map((e) => e.getAttribute('data-test-id')));
	return ids.map((id) => id.replace(/^parameter-input-/, '')).filter((id) => id !== 'field');
}

/** The label shown above a parameter. */
export async function parameterLabel(page, name) {
	const item = page
		.getByTestId('node-parameters')
		.getByTestId('parameter-item')
		.filter({ has: page.getByTestId(`parameter-input-${name}`) })
		.last();
	// The label row also holds the Fixed/Expression toggle; the label is its first line.
	const text = (await item.locator('label').first().innerText()).split('\n')[0];
	return text.replace(/\s*\*\s*$/, '').trim();
}

/** The text or selected option shown in a parameter's input. */
export async function parameterValue(page, name) {
	return await parameter(page, name).locator('input, textarea').first().inputValue();
}

export async function parameterPlaceholder(page, name) {
	return await parameter(page, name).locator('input, textarea').first().getAttribute('placeholder');
}

/** Picks an option of a dropdown parameter by its visible name. */
export async function selectOption(page, name, option) {
	await parameter(page, name).click();
	await page
		.locator('.el-select-dropdown:visible')
		.getByRole('option', { name: option })
		.first()
		.click();
}

/** The option names a dropdown parameter offers (opens and closes it). */
export async function dropdownOptions(page, name) {
	await parameter(page, name).click();
	const list = page.locator('.el-select-dropdown:visible').getByRole('option');
	await list.first().waitFor();
	// The options are drawn together; a list still empty of text is not read yet.
	const names = await waitUntil(
		async () => (await list.allInnerTexts()).map((text) => text.split('\n')[0].trim()),
		(texts) => texts.length > 0 && texts.every(Boolean),
		`the options of ${name}`,
	);
	const dropdown = page.locator('.el-select-dropdown:visible').first();
	await page.keyboard.press('Escape');
	await dropdown.waitFor({ state: 'hidden' }).catch(() => undefined);
	return names;
}

/** Whether a boolean parameter's switch is on. */
export async function switchIsOn(page, name) {
	return await parameter(page, name)
		.locator('.el-switch')
		.first()
		.evaluate(
			(element) =>
				element.classList.contains('is-checked') ||
				element.querySelector('[aria-checked]')?.getAttribute('aria-checked') === 'true',
		);
}

/** How long a browser step waits for what it checks: generous, for a loaded machine. */
export const SETTLE_MS = 60_000;

/**
 * Reads `read()` again until `done(value)` accepts it, or `timeoutMs` has passed; returns the
 * last value read, so the caller's check reports what was on screen when the time ran out.
 */
export async function waitForText(read, done, timeoutMs = SETTLE_MS) {
	const deadline = Date.now() + timeoutMs;
	let text = await read();
	while (!done(text) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		text = await read();
	}
	return text;
}

/**
 * Like waitForText, but a value `done` never accepts is an error naming `what` was awaited and
 * the last value seen.
 */
export async function waitUntil(read, done, what, timeoutMs = SETTLE_MS) {
	const value = await waitForText(read, done, timeoutMs);
	if (!done(value)) {
		throw new Error(`waited ${timeoutMs} ms for ${what}; last seen: ${JSON.stringify(value)}`);
	}
	return value;
}

/** The canvas's pan and zoom (Vue Flow's transformation pane), or '' before it is drawn. */
async function canvasTransform(page) {
	const pane = page.locator('.vue-flow__transformationpane').first();
	if ((await pane.count()) === 0) return '';
	return await pane.evaluate(
		(element) =>
			new Promise((resolve) => {
				// Still for two drawn frames: a running fit or zoom moves it every frame.
				const before = element.style.transform;
				requestAnimationFrame(() =>
					requestAnimationFrame(() =>
						resolve(element.style.transform === before ? before : `moving:${before}`),
					),
				);
			}),
	);
}

/**
 * Waits until the canvas holds still with every node of `names` drawn inside it (the fit after
 * loading a workflow, or after zoom to fit), and, with `changedFrom`, until its pan or zoom
 * differs from that transform (a zoom step took effect). Returns the transform.
 */
export async function waitForCanvas(page, names, { changedFrom, timeout = SETTLE_MS } = {}) {
	const canvas = page.locator('.vue-flow').first();
	await canvas.waitFor({ timeout });
	const state = async () => {
		const transform = await canvasTransform(page);
		const area = await canvas.boundingBox();
		const outside = [];
		for (const name of names) {
			const box = await canvasNode(page, name)
				.first()
				.boundingBox()
				.catch(() => null);
			const within =
				box &&
				area &&
				box.width > 0 &&
				box.x >= area.x &&
				box.y >= area.y &&
				box.x + box.width <= area.x + area.width &&
				box.y + box.height <= area.y + area.height;
			if (!within) outside.push(name);
		}
		return { transform, outside };
	};
	const { transform } = await waitUntil(
		state,
		({ transform: now, outside }) =>
			now !== '' &&
			!now.startsWith('moving:') &&
			outside.length === 0 &&
			(changedFrom === undefined || now !== changedFrom),
		`the canvas to hold still with ${JSON.stringify(names)} inside it${changedFrom === undefined ? '' : ' after the zoom'}`,
		timeout,
	);
	return transform;
}

/** The canvas's current pan and zoom once it holds still. */
export async function stillCanvas(page, timeout = SETTLE_MS) {
	return await waitForCanvas(page, [], { timeout });
}

/** Texts of the notices shown in the open panel. */
export async function notices(page) {
	return await page
		.getByTestId('node-parameters')
		.locator('.notice-content:visible')
		.allInnerTexts();
}

/**
 * Whether the placeholder of a text parameter fits into its input without being cut off:
 * its rendered width in the input's font against the input's inner width.
 */
export async function placeholderFits(page, name) {
	return await parameter(page, name)
		.locator('input, textarea')
		.first()
		.evaluate((input) => {
			const style = getComputedStyle(input);
			const context = document.createElement('canvas').getContext('2d');
			context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
			const textWidth = context.measureText(input.placeholder).width;
			const inner =
				input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
			return {
				fits: textWidth <= inner,
				textWidth: Math.round(textWidth),
				inner: Math.round(inner),
			};
		});
}

/** The subtitle line under a node's name on the canvas. */
export async function canvasSubtitle(page, name) {
	const lines = (await canvasNode(page, name).innerText()).split('\n').map((l) => l.trim());
	const at = lines.indexOf(name);
	return at === -1 ? undefined : lines[at + 1];
}

/**
 * The output labels of a node on the canvas, each with the part a user sees when the canvas
 * cuts it short (estimated from the share of the label's width that is visible).
 */
export async function outputLabels(page, name) {
	return await canvasNode(page, name)
		.locator('[data-test-id="canvas-node-output-handle"] [class*="outputLabel"]')
		.evaluateAll((elements) =>
			elements.map((element) => {
				const text = element.textContent.trim();
				const cut = element.scrollWidth > element.clientWidth + 1;
				const visibleChars = cut
					? Math.max(1, Math.floor((text.length * element.clientWidth) / element.scrollWidth) - 1)
					: text.length;
				return { text, cut, visible: text.slice(0, visibleChars) };
			}),
		);
}

/** The entries shown in an open resource locator list (issue 21). */
function locatorItems(page) {
	return page.locator('[data-test-id="rlc-item"]:visible');
}

/**
 * Opens the From list dropdown of a resource locator parameter and waits until the service's
 * entries are shown; returns their texts.
 */
export async function openLocatorList(page, name, timeout = SETTLE_MS) {
	await parameter(page, name).getByTestId('rlc-input').click();
	await locatorItems(page).first().waitFor({ timeout });
	// The dropdown fades in: a screenshot waits until its animations have finished.
	await locatorItems(page)
		.first()
		.locator('xpath=../..')
		.evaluate(
			async (element) => {
				let node = element;
				while (node) {
					const finite = node
						.getAnimations()
						.filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
					await Promise.all(finite.map((animation) => animation.finished));
					node = node.parentElement;
				}
			},
			undefined,
			{ timeout },
		);
	return await waitUntil(
		() => locatorTexts(page),
		(texts) => texts.length > 0,
		`the entries of ${name}`,
		timeout,
	);
}

/** The texts of the entries in the open list. */
export async function locatorTexts(page) {
	return (await locatorItems(page).allInnerTexts()).map((text) => text.trim()).filter(Boolean);
}

/** Types into the open list's search box and waits until the entries are `done(texts)`. */
export async function searchLocator(page, text, done) {
	await page
		.locator('input[data-test-id="rlc-search"]:visible, [data-test-id="rlc-search"]:visible input')
		.first()
		.fill(text);
	return await waitForText(
		() => locatorTexts(page),
		(texts) => done(texts),
		SETTLE_MS,
	);
}

/** Clicks the entry of the open list whose text matches. */
export async function pickLocatorItem(page, pattern) {
	await locatorItems(page).filter({ hasText: pattern }).first().click();
}

/** Switches a resource locator to another mode (e.g. "By ID"). */
export async function locatorMode(page, name, mode) {
	await parameter(page, name).getByTestId('rlc-mode-selector').click();
	await page
		.locator('.el-select-dropdown:visible')
		.getByRole('option', { name: mode })
		.first()
		.click();
}

/** The issues n8n shows for a parameter (the icon's tooltip), after hovering it. */
export async function parameterIssues(page, name, timeout = SETTLE_MS) {
	const item = page
		.getByTestId('node-parameters')
		.getByTestId('parameter-item')
		.filter({ has: page.getByTestId(`parameter-input-${name}`) })
		.last();
	const icon = item.getByTestId('parameter-issues').first();
	await icon.waitFor({ timeout });
	await icon.hover();
	// n8n's tooltip: a title "Issues:" above the list of messages.
	const title = page.getByText(/^Issues:$/).last();
	await title.waitFor({ timeout });
	return await title.locator('xpath=..').innerText();
}
