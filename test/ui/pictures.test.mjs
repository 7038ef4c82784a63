/**
 * The pictures of the documentation stay true (issue 40): the same steps `npm run screenshots`
 * takes (harness/pictures.mjs), each asserting what its picture must show: the elements on
 * screen, not its pixels. A step that no longer works, or a screen that lost what the docs
 * show, fails here, in the browser lane, on the n8n the pictures come from (2.41.1; the lane on
 * 2.8.4 skips it, for CI's time: the editor suite covers 2.8.4's screens). The pictures of this
 * run land in test/ui/.screenshots/pictures/ for a person to compare with docs/images/.
 *
 * Run after a build: node --test test/ui/pictures.test.mjs
 * (COMPANY_PAYMENTS_N8N_VERSION=2.41.1 for the n8n the committed pictures come from).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { SCREENSHOT_DIR, startStack, stopStack, whileBusy } from '../../harness/editor-stack.mjs';
import { N8N_VERSION } from '../../harness/n8n.mjs';
import {
	PICTURES,
	pictureCredentials,
	pictureSession,
	takePicture,
} from '../../harness/pictures.mjs';

const DIR = path.join(SCREENSHOT_DIR, 'pictures');
/** The n8n `npm run screenshots` takes the pictures on (scripts/screenshots.mjs). */
const PICTURES_N8N = '2.41.1';
const skip = N8N_VERSION === PICTURES_N8N ? false : `the pictures come from n8n ${PICTURES_N8N}`;

let stack;
let ctx;

before(async () => {
	if (skip) return;
	const started = Date.now();
	stack = await startStack({ credentials: pictureCredentials });
	ctx = await pictureSession(stack, { whileBusy });
	console.log(
		`[ui] pictures: stack ready in ${Date.now() - started} ms ${JSON.stringify(stack.timings)}`,
	);
});

after(async () => {
	if (stack) await stopStack(stack);
});

for (const picture of PICTURES) {
	test(`${picture.file} shows what the docs say it shows`, { skip }, async () => {
		const started = Date.now();
		const { missing, bytes } = await takePicture(ctx, picture, DIR);
		console.log(`[ui] ${picture.file}: ${bytes} bytes, ${Date.now() - started} ms`);
		assert.deepEqual(missing, [], `${picture.file} lacks what it must show`);
	});
}
