// Preloaded into the n8n under test by bench/upstream.mjs (NODE_OPTIONS=--require), for the
// benchmark of docs/upstream-isolate.md only: when n8n loads one of the files named in
// COMPANY_PAYMENTS_PATCHED_FILES (a JSON object: installed file → patched copy in bench/.work),
// the copy's source is compiled in its place, under the installed file's name, so the copy's
// own requires resolve exactly as the original's. The install in ~/.cache is never written to.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');

const replacements = JSON.parse(process.env.COMPANY_PAYMENTS_PATCHED_FILES || '{}');
/** The line the benchmark looks for in n8n's log: the patched copy was really compiled. */
const MARK = '[company-payments bench] compiled the patched copy of';

if (Object.keys(replacements).length > 0) {
	const compile = Module.prototype._compile;
	Module.prototype._compile = function compilePatched(content, filename) {
		const copy = replacements[filename];
		if (copy === undefined) return compile.call(this, content, filename);
		process.stderr.write(`${MARK} ${filename}\n`);
		return compile.call(this, fs.readFileSync(copy, 'utf8'), filename);
	};
}
