#!/usr/bin/env node
/**
 * `npm run screenshots` (issue 40): the documentation's pictures, taken in the real editor of
 * n8n 2.41.1 (COMPANY_PAYMENTS_N8N_VERSION overrides) with the built package against the
 * sandbox, by the steps of harness/pictures.mjs, the same steps the browser suite asserts
 * (test/ui/pictures.test.mjs). This is the only way the pictures in docs/images/ are made.
 *
 * Every picture is taken into a temporary folder first. docs/images/ is replaced only when each
 * picture shows what it must, is under 150 KB, and all together are under 1 MB; otherwise the
 * script says what is wrong and leaves the committed pictures as they are.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

process.env.COMPANY_PAYMENTS_N8N_VERSION ??= '2.41.1';

const { startStack, stopStack, whileBusy } = await import('../harness/editor-stack.mjs');
const { N8N_VERSION } = await import('../harness/n8n.mjs');
const pictures = await import('../harness/pictures.mjs');
const { IMAGES_DIR, MAX_PICTURE_BYTES, MAX_TOTAL_BYTES, PICTURES: ALL } = pictures;

/**
 * COMPANY_PAYMENTS_PICTURES=a.png,b.png takes only those (a new picture without retaking the
 * others): the other files of docs/images/ are then left as they are, and the 1 MB total is
 * counted with them.
 */
const only = process.env.COMPANY_PAYMENTS_PICTURES?.split(',').map((name) => name.trim());
const PICTURES = only ? ALL.filter((picture) => only.includes(picture.file)) : ALL;
if (only && PICTURES.length !== only.length) {
	const known = ALL.map((picture) => picture.file);
	console.error(`[screenshots] unknown pictures: ${only.filter((n) => !known.includes(n))}`);
	process.exit(1);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
	const started = Date.now();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-screenshots-'));
	let stack;
	const problems = [];
	const taken = [];
	try {
		console.log(`[screenshots] n8n ${N8N_VERSION}: starting the sandbox, n8n and Chromium`);
		stack = await startStack({ credentials: pictures.pictureCredentials });
		const ctx = await pictures.pictureSession(stack, { whileBusy });
		for (const picture of PICTURES) {
			const result = await pictures.takePicture(ctx, picture, work);
			taken.push({ picture, ...result });
			const size = result.bytes < MAX_PICTURE_BYTES ? '' : ` (over ${kb(MAX_PICTURE_BYTES)})`;
			console.log(
				`[screenshots] ${picture.file}: ${kb(result.bytes)}${size}, ${result.clip.width}×${result.clip.height}`,
			);
			for (const what of result.missing) problems.push(`${picture.file}: lacks ${what}`);
			if (size) problems.push(`${picture.file}: ${kb(result.bytes)}${size}`);
		}
	} finally {
		await stopStack(stack);
	}
	const kept = only
		? ALL.filter((picture) => !only.includes(picture.file))
				.map((picture) => path.join(IMAGES_DIR, picture.file))
				.filter((file) => fs.existsSync(file))
				.reduce((sum, file) => sum + fs.statSync(file).size, 0)
		: 0;
	const total = kept + taken.reduce((sum, { bytes }) => sum + bytes, 0);
	if (total >= MAX_TOTAL_BYTES) problems.push(`together ${kb(total)}, over ${kb(MAX_TOTAL_BYTES)}`);
	if (problems.length > 0) {
		console.error(`[screenshots] docs/images/ left as it was:\n  ${problems.join('\n  ')}`);
		console.error(`[screenshots] this run's pictures: ${work}`);
		process.exit(1);
	}
	fs.mkdirSync(IMAGES_DIR, { recursive: true });
	const wanted = new Set(ALL.map((picture) => picture.file));
	for (const name of only ? [] : fs.readdirSync(IMAGES_DIR)) {
		if (name.endsWith('.png') && !wanted.has(name)) fs.rmSync(path.join(IMAGES_DIR, name));
	}
	for (const { file } of taken) fs.copyFileSync(file, path.join(IMAGES_DIR, path.basename(file)));
	fs.rmSync(work, { recursive: true, force: true });
	console.log(
		`[screenshots] wrote ${taken.length} pictures to docs/images/ (${kb(total)} in all) in ${Math.round((Date.now() - started) / 1000)} s`,
	);
}

main().catch((error) => {
	console.error(`[screenshots] ${error.stack ?? error}`);
	process.exit(1);
});
