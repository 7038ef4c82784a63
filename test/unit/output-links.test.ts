/**
 * A text the package hands out (an error, a hint, an output field, a panel text) can only point
 * at a page the reader can open: only dist/ is published, so a relative `docs/….md` in a string
 * is a dead reference in n8n. Comments may name repository files; string and template texts of
 * the core package (nodes/, credentials/) may not, unless as an absolute https link.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** Every string and template text of a source file, with its line. */
function texts(path: string): Array<{ line: number; text: string }> {
	const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
	const found: Array<{ line: number; text: string }> = [];
	const visit = (node: ts.Node): void => {
		if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
			const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
			found.push({ line, text: node.text });
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return found;
}

/** A repository file named without an absolute link: `docs/x.md`, `README.md#…`, `examples/…`. */
const RELATIVE = /(?<![\w/.-])(?:docs\/[\w./-]+|README\.md|CONTRIBUTING\.md|examples\/[\w./-]+)/;

describe('texts the package hands out name no unpublished file', () => {
	const files = [...sources(join(ROOT, 'nodes')), ...sources(join(ROOT, 'credentials'))];

	it('reads the core package', () => {
		expect(files.length).toBeGreaterThan(50);
	});

	it('no string names docs/…, README.md or examples/… except inside an https link', () => {
		const dead = files.flatMap((path) =>
			texts(path)
				.filter(({ text }) => RELATIVE.test(text.replace(/https:\/\/\S+/g, '')))
				.map(({ line, text }) => `${relative(ROOT, path)}:${line}: ${text.slice(0, 120)}`),
		);
		expect(dead).toEqual([]);
	});
});
