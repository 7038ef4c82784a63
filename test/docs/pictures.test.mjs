/**
 * The pictures of the documentation (issue 40): the files `npm run screenshots` writes to
 * docs/images/ are the ones harness/pictures.mjs lists, small enough for the npm page, and each
 * is shown where the docs explain that screen with the alt text that says what it shows. The
 * browser suite (test/ui/pictures.test.mjs) checks that the steps still show it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import {
	IMAGES_DIR,
	MAX_PICTURE_BYTES,
	MAX_TOTAL_BYTES,
	PICTURES,
	ROOT,
} from '../../harness/pictures.mjs';
import { linksOf } from '../../scripts/links.mjs';

const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The pictures a Markdown page shows: `{ file, alt, offset }` for each image of docs/images/. */
function picturesOn(page) {
	const text = read(page);
	const shown = [];
	for (const match of text.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)) {
		const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), match[2]));
		if (target.startsWith('docs/images/')) {
			shown.push({ file: path.posix.basename(target), alt: match[1], offset: match.index });
		}
	}
	return shown;
}

const PAGES = [
	'README.md',
	...fs
		.readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

describe('the pictures', () => {
	test('docs/images/ holds exactly the pictures npm run screenshots makes, as PNG', () => {
		const files = fs.readdirSync(IMAGES_DIR).sort();
		assert.deepEqual(files, PICTURES.map((picture) => picture.file).sort());
		for (const file of files) {
			const head = fs.readFileSync(path.join(IMAGES_DIR, file)).subarray(0, 8);
			assert.ok(head.equals(PNG), `${file} is a PNG`);
		}
	});

	test('each is under 150 KB and all together under 1 MB', () => {
		let total = 0;
		for (const { file } of PICTURES) {
			const { size } = fs.statSync(path.join(IMAGES_DIR, file));
			assert.ok(size < MAX_PICTURE_BYTES, `${file} is ${size} bytes`);
			total += size;
		}
		assert.ok(total < MAX_TOTAL_BYTES, `together ${total} bytes`);
	});

	test('every picture is shown, each time with the alt text that says what it shows', () => {
		const seen = new Set();
		for (const page of PAGES) {
			for (const { file, alt } of picturesOn(page)) {
				const picture = PICTURES.find((candidate) => candidate.file === file);
				assert.ok(picture, `${page} shows ${file}, which npm run screenshots does not make`);
				assert.equal(alt, picture.alt, `${page}: the alt text of ${file}`);
				seen.add(file);
			}
		}
		assert.deepEqual(
			PICTURES.map((picture) => picture.file).filter((file) => !seen.has(file)),
			[],
		);
	});

	test('the README shows three near the top, and at least four docs pages show the others', () => {
		const readme = read('README.md');
		const top = readme.indexOf('## Install in n8n');
		const early = picturesOn('README.md').filter(({ offset }) => offset < top);
		assert.equal(early.length, 3, `pictures before "Install in n8n": ${JSON.stringify(early)}`);
		const pages = PAGES.filter((page) => page !== 'README.md' && picturesOn(page).length > 0);
		assert.ok(pages.length >= 4, `docs pages with pictures: ${pages.join(', ')}`);
		const inDocs = new Set(pages.flatMap((page) => picturesOn(page).map(({ file }) => file)));
		for (const { file } of PICTURES.filter((p) => !early.some(({ file: f }) => f === p.file))) {
			assert.ok(inDocs.has(file), `${file} is shown on a docs page`);
		}
	});

	test("the README's images are links the release makes absolute (relative paths here)", () => {
		const images = linksOf(read('README.md')).filter((link) => link.image);
		assert.ok(images.length >= 3);
		for (const { target } of images) assert.match(target, /^docs\/images\/[\w-]+\.png$/);
	});
});
