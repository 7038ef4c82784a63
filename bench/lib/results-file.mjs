// bench/RESULTS.md holds one section per n8n version the benchmark ran on. A run rewrites only
// the section of its own version and the summary of ratios across versions at the top; the other
// versions' sections stay as they were measured.

const TITLE = '# Benchmark results';
const INTRO =
	'Written by `npm run bench` (bench/run.mjs), one section per n8n version ' +
	"(`COMPANY_PAYMENTS_N8N_VERSION=<version> npm run bench` rewrites that version's section). " +
	'How each figure is measured: bench/README.md.';
const begin = (version) => `<!-- bench:n8n-${version} -->`;
const end = (version) => `<!-- /bench:n8n-${version} -->`;
const SECTION = /<!-- bench:n8n-([0-9.]+) -->\n([\s\S]*?)\n<!-- \/bench:n8n-\1 -->/g;

/** The sections of an existing RESULTS.md, by n8n version (a file from before sections: none). */
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

/** Ratios of every figure side by side, one column per n8n version. */
export function summaryTable(sections) {
	const versions = [...sections.keys()].sort(byVersion);
	const perVersion = versions.map((version) => ratiosOf(sections.get(version)));
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
 * The whole RESULTS.md after replacing (or adding) the section of `version`.
 * @param {string} previous the current file ('' when none)
 * @param {string} version
 * @param {string} sectionBody the version's heading, context, table and notes
 */
export function withSection(previous, version, sectionBody) {
	const sections = readSections(previous);
	sections.set(version, sectionBody.trim());
	const versions = [...sections.keys()].sort(byVersion);
	const parts = [
		TITLE,
		INTRO,
		`## Ratios by n8n version\n\nEach ratio is ours against n8n's own node in the same run on that version (details in the version's section).\n\n${summaryTable(sections)}`,
		...versions.map((v) => `${begin(v)}\n${sections.get(v)}\n${end(v)}`),
	];
	return `${parts.join('\n\n')}\n`;
}
