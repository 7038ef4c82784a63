// Links of the published package, read the way GitHub and npm render them. Used by
// scripts/pack-release.mjs (it rewrites the README's links and refuses a tarball whose links do
// not resolve) and by test/docs/links.test.mjs.
//
// A link is an inline link or image `[text](target)`, a reference definition `[label]: target`,
// or an `href`/`src` attribute of inline HTML; anything inside a code span or fenced block is
// text, not a link.
import fs from 'node:fs';
import path from 'node:path';

/** The text with fenced code blocks and code spans blanked (same length, newlines kept). */
export function maskCode(markdown) {
	const blank = (code) => code.replace(/[^\n]/g, ' ');
	return markdown
		.replace(/^([ \t]*)(```|~~~)[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm, blank)
		.replace(/(`+)[^`\n].*?\1/g, blank);
}

// Each pattern ends with the link's target, so the target's position is the match's end.
const PATTERNS = [
	// [text](target "title") and ![alt](target); one level of brackets inside the text
	{ re: /(!?)\[(?:[^[\]\n]|\[[^\]\n]*\])*\]\(\s*<?([^)\s>]+)/g, image: (m) => m[1] === '!' },
	// [label]: target
	{ re: /^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)/gm, image: () => false },
	// <a href="target">, <img src="target">
	{ re: /<(a|img)\b[^>]*?\s(?:href|src)="([^"]+)/gi, image: (m) => m[1].toLowerCase() === 'img' },
];

/** Every link of a Markdown text: `{ target, image, start, end }`, in the order they appear. */
export function linksOf(markdown) {
	const masked = maskCode(markdown);
	const links = [];
	for (const { re, image } of PATTERNS) {
		for (const match of masked.matchAll(re)) {
			const target = match[match.length - 1];
			const end = match.index + match[0].length;
			links.push({ target, image: image(match), start: end - target.length, end });
		}
	}
	return links.sort((a, b) => a.start - b.start);
}

/** The text with each link's target replaced by `rewrite(link)` (undefined: kept as it is). */
export function mapLinks(markdown, rewrite) {
	let out = '';
	let at = 0;
	for (const link of linksOf(markdown)) {
		const target = rewrite(link) ?? link.target;
		out += markdown.slice(at, link.start) + target;
		at = link.end;
	}
	return out + markdown.slice(at);
}

/**
 * GitHub's anchor of a heading: the text as rendered (link and emphasis markup dropped, code
 * kept verbatim), lower case, every character but letters, digits, `_`, `-` and space dropped,
 * spaces to hyphens (the rules of github-slugger, which npm's README pages follow too).
 */
export function slug(heading) {
	const text = heading
		.replace(/!?\[((?:[^[\]]|\[[^\]]*\])*)\]\([^)]*\)/g, '$1')
		.split(/(`+[^`]*`+)/)
		.map((part, index) =>
			index % 2 === 1
				? part.replace(/^`+|`+$/g, '')
				: part
						.replace(/<[^>]*>/g, '')
						.replace(/\*+/g, '')
						.replace(/(^|[^\p{L}\p{N}_])_+|_+(?![\p{L}\p{N}_])/gu, '$1'),
		)
		.join('');
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors a Markdown text offers: its headings (repeats get -1, -2, ...) and HTML ids. */
export function anchorsOf(markdown) {
	const masked = maskCode(markdown);
	const anchors = new Set();
	const seen = new Map();
	for (const match of masked.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
		const base = slug(match[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	for (const match of masked.matchAll(/<[a-z]+\b[^>]*?\s(?:id|name)="([^"]+)"/gi)) {
		anchors.add(match[1]);
	}
	return anchors;
}

/**
 * What is wrong with one link of the published package, or undefined. A link must be one of:
 *   - `#anchor`, or the package's npm page (`npmPage`, optionally `#anchor`): the anchor is a
 *     heading of the packed README (`readme`);
 *   - `<repository>/blob|tree|raw/<ref>/<path>[#anchor]`: the path exists in `root` (the
 *     checkout the tag names) as a file (blob, raw) or a folder (tree), the anchor is a heading
 *     of that file; an image uses raw (a blob URL is an HTML page);
 *   - a link to another site (not ours to check).
 * Anything else is relative, and dead on npm, where only the tarball's files exist.
 */
export function linkProblem(link, { repository, ref, root, readme, npmPage }) {
	const { target, image } = typeof link === 'string' ? { target: link, image: false } : link;
	const hash = target.indexOf('#');
	const [base, anchor] =
		hash === -1 ? [target, ''] : [target.slice(0, hash), target.slice(hash + 1)];
	if (base === '' || base === npmPage) {
		if (anchor && !anchorsOf(readme).has(decodeURIComponent(anchor))) {
			return `${target}: no heading "#${anchor}" in the README`;
		}
		return undefined;
	}
	if (repository && base.startsWith(`${repository}/`)) {
		const [kind, at, ...parts] = base.slice(repository.length + 1).split('/');
		const file = decodeURIComponent(parts.join('/').replace(/\/$/, ''));
		if (!['blob', 'tree', 'raw'].includes(kind) || at !== ref) {
			return `${target}: not a link to a file of ${ref} (…/blob|tree|raw/${ref}/<path>)`;
		}
		if (image && kind !== 'raw') return `${target}: an image must use …/raw/…`;
		const full = path.join(root, file);
		if (!fs.existsSync(full)) return `${target}: ${file || '/'} does not exist`;
		const folder = fs.statSync(full).isDirectory();
		if (folder !== (kind === 'tree')) {
			return `${target}: ${file} is a ${folder ? 'folder (…/tree/…)' : 'file (…/blob/…)'}`;
		}
		if (anchor && !anchorsOf(fs.readFileSync(full, 'utf8')).has(decodeURIComponent(anchor))) {
			return `${target}: no heading "#${anchor}" in ${file}`;
		}
		return undefined;
	}
	if (/^[a-z][a-z0-9+.-]*:/i.test(base)) return undefined;
	return `${target}: a relative link, dead on npm`;
}

/** Files under a folder, recursively, whose name passes `keep`. */
function filesUnder(dir, keep, found = []) {
	if (!fs.existsSync(dir)) return found;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) filesUnder(full, keep, found);
		else if (keep(entry.name)) found.push(full);
	}
	return found;
}

/**
 * Every link a user of the unpacked package (`dir`, holding package.json) can follow, with the
 * file it is in: the README's links, each codex file's documentation links (n8n's node panel),
 * and each `documentationUrl` of the compiled nodes and credentials (n8n's credential dialog).
 */
export function packageLinks(dir) {
	const links = [];
	const readme = path.join(dir, 'README.md');
	if (fs.existsSync(readme)) {
		for (const link of linksOf(fs.readFileSync(readme, 'utf8'))) links.push({ file: readme, link });
	}
	for (const file of filesUnder(path.join(dir, 'dist'), (name) => name.endsWith('.node.json'))) {
		const codex = JSON.parse(fs.readFileSync(file, 'utf8'));
		for (const entry of Object.values(codex.resources ?? {}).flat()) {
			links.push({ file, link: { target: entry.url, image: false } });
		}
	}
	for (const file of filesUnder(path.join(dir, 'dist'), (name) => name.endsWith('.js'))) {
		const code = fs.readFileSync(file, 'utf8');
		for (const match of code.matchAll(/documentationUrl\s*[=:]\s*(['"`])([^'"`]+)\1/g)) {
			links.push({ file, link: { target: match[2], image: false } });
		}
	}
	return links;
}

/** The problems of every link of an unpacked package (`dir`), each prefixed with its file. */
export function packageProblems(dir, { repository, ref, root }) {
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const readmeFile = path.join(dir, 'README.md');
	const context = {
		repository,
		ref,
		root,
		readme: fs.existsSync(readmeFile) ? fs.readFileSync(readmeFile, 'utf8') : '',
		npmPage: `https://www.npmjs.com/package/${pkg.name}`,
	};
	return packageLinks(dir).flatMap(({ file, link }) => {
		const problem = linkProblem(link, context);
		return problem ? [`${path.relative(dir, file)}: ${problem}`] : [];
	});
}
