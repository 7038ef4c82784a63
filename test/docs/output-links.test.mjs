/**
 * A text the package hands out (an error, a hint, an output field, a panel text) can only point
 * at a page the reader can open: only dist/ is published, so a relative `docs/….md` in a string
 * is a dead reference in n8n. Comments may name repository files; string and template texts of
 * the core package (nodes/, credentials/) may not, unless inside an absolute https link.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return sources(file);
		return entry.name.endsWith('.ts') ? [file] : [];
	});
}

/** Every string and template text of a source file, with its line. */
function texts(file) {
	const source = ts.createSourceFile(
		file,
		readFileSync(file, 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const found = [];
	const visit = (node) => {
		if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
			const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
			found.push({ line, text: node.text });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** A repository file named without an absolute link: `docs/x.md`, `README.md`, `examples/…`. */
const RELATIVE = /(?<![\w/.-])(?:docs\/[\w./-]+|README\.md|CONTRIBUTING\.md|examples\/[\w./-]+)/;

const files = [...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))];

test('reads the core package', () => {
	assert.ok(files.length > 50, `${files.length} files`);
});

test('no string of the core package names docs/…, README.md or examples/… outside an https link', () => {
	const dead = files.flatMap((file) =>
		texts(file)
			.filter(({ text }) => RELATIVE.test(text.replace(/https:\/\/\S+/g, '')))
			.map(({ line, text }) => `${path.relative(ROOT, file)}:${line}: ${text.slice(0, 120)}`),
	);
	assert.deepEqual(dead, []);
});
