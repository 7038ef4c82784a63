// bench/RESULTS.md holds one section per benchmark setup: one per n8n version the main benchmark
// (bench/run.mjs) ran on, then queue mode (bench/queue.mjs) and the Poll Trigger
// (bench/poll.mjs). A run rewrites only its own section and the summary of ratios across
// versions at the top; the other sections stay as they were measured.
import fs from 'node:fs';

const TITLE = '# Benchmark results';
const INTRO =
	'Written by the benchmarks, one section each: `npm run bench` (bench/run.mjs) one per n8n ' +
	"version (`COMPANY_PAYMENTS_N8N_VERSION=<version> npm run bench` rewrites that version's " +
	'section), `node bench/queue.mjs` the queue-mode section and `node bench/poll.mjs` the Poll ' +
	'Trigger section. How each figure is measured: bench/README.md.';
/** Sections after the per-version ones, in this order. */
const OTHER_SECTIONS = ['queue', 'poll'];
const begin = (key) => `<!-- bench:${key} -->`;
const end = (key) => `<!-- /bench:${key} -->`;
const SECTION = /<!-- bench:([a-z0-9.-]+) -->\n([\s\S]*?)\n<!-- \/bench:\1 -->/g;
const VERSION_KEY = /^n8n-([0-9.]+)$/;

/** The key of the section of an n8n version. */
export const versionKey = (version) => `n8n-${version}`;

/** The sections of an existing RESULTS.md, by key (`n8n-<version>`, `queue`, `poll`). */
export function readSections(text) {
	const sections = new Map();
	for (const match of text.matchAll(SECTION)) sections.set(match[1], match[2]);
	return sections;
}

/** Figure → { ratio, met } from a section's table (columns: Figure, Ours, Reference, Ratio, Target, Met). */
export function ratiosOf(section) {
	const ratios = new Map();
	for (const line of section.split('\n')) {
		if (!line.startsWith('| ') || line.startsWith('| Figure') || line.startsWith('| ---')) continue;
		const cells = line
			.slice(2, -2)
			.split(' | ')
			.map((cell) => cell.trim());
		if (cells.length < 6 || !cells[3]) continue;
		ratios.set(cells[0], { ratio: cells[3], target: cells[4], met: cells[5] });
	}
	return ratios;
}

const byVersion = (a, b) => {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
	return 0;
};

/** The n8n versions that have a section, oldest first. */
function versionsOf(sections) {
	return [...sections.keys()]
		.map((key) => VERSION_KEY.exec(key)?.[1])
		.filter(Boolean)
		.sort(byVersion);
}

/** Ratios of every figure side by side, one column per n8n version. */
export function summaryTable(sections) {
	const versions = versionsOf(sections);
	const perVersion = versions.map((version) => ratiosOf(sections.get(versionKey(version))));
	const figures = [];
	for (const ratios of perVersion)
		for (const figure of ratios.keys()) if (!figures.includes(figure)) figures.push(figure);
	const header = ['Figure', 'Target', ...versions.map((version) => `n8n ${version}`)];
	const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
	for (const figure of figures) {
		const target = perVersion.map((ratios) => ratios.get(figure)?.target).find(Boolean) ?? '';
		const cells = perVersion.map((ratios) => {
			const entry = ratios.get(figure);
			if (!entry) return 'not measured';
			return entry.met ? `${entry.ratio} (met: ${entry.met.replace(/\*/g, '')})` : entry.ratio;
		});
		lines.push(`| ${[figure, target, ...cells].join(' | ')} |`);
	}
	return lines.join('\n');
}

/**
 * The whole RESULTS.md after replacing (or adding) one section.
 * @param {string} previous the current file ('' when none)
 * @param {string} key `versionKey(<n8n version>)`, 'queue' or 'poll'
 * @param {string} sectionBody the section's heading, context, table and notes
 */
export function withSection(previous, key, sectionBody) {
	if (!VERSION_KEY.test(key) && !OTHER_SECTIONS.includes(key))
		throw new Error(`unknown RESULTS.md section "${key}"`);
	const sections = readSections(previous);
	sections.set(key, sectionBody.trim());
	const keys = [
		...versionsOf(sections).map(versionKey),
		...OTHER_SECTIONS.filter((k) => sections.has(k)),
	];
	const parts = [
		TITLE,
		INTRO,
		`## Ratios by n8n version\n\nEach ratio is ours against n8n's own node in the same run on that version (details in the version's section).\n\n${summaryTable(sections)}`,
		...keys.map((k) => `${begin(k)}\n${sections.get(k)}\n${end(k)}`),
	];
	return `${parts.join('\n\n')}\n`;
}

/** Replaces (or adds) one section of the results file on disk; the others stay as they were. */
export function writeSection(file, key, sectionBody) {
	const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	fs.writeFileSync(file, withSection(previous, key, sectionBody));
}
