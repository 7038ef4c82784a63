// The upstream change of docs/upstream-isolate.md, applied for the benchmark only: n8n 2.41.1
// skips the webhook-phase expression sandbox for any start node whose parameters are static and
// whose webhook description resolves without the engine, as it does for its own Webhook node.
//
// patchedN8n() copies the two compiled files the change touches out of the installed n8n into
// a work folder (bench/.work/upstream/), edits the copies, writes the diff next to them, and
// returns the environment that makes an n8n process compile the copies in place of the
// originals (bench/lib/patched-n8n.cjs, preloaded with NODE_OPTIONS). The install itself is
// only read; nothing here is shipped or used outside `npm run bench`.
//
//   node bench/upstream.mjs      prints the diff of the copies against the installed n8n
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PRELOAD = path.join(ROOT, 'bench', 'lib', 'patched-n8n.cjs');
const MARK = '[company-payments bench] compiled the patched copy of';

/**
 * Each edit: the exact text of n8n 2.41.1's compiled file and what replaces it. An edit whose
 * text is not found (another n8n version) stops the benchmark rather than measure an
 * unpatched n8n.
 */
const EDITS = {
	'n8n/dist/webhooks/live-webhooks.js': [
		{
			// The gate asks what the start node needs, not which type it is: static parameters and
			// a webhook description every field of which resolves natively (n8n's own tests for
			// its Webhook node), for any node type. Version 1 no longer needs an isolate either:
			// its `binaryData` option is read natively below when the parameters are static.
			from: `        if (startNode.type !== n8n_workflow_1.WEBHOOK_NODE_TYPE)
            return true;
        if (startNode.typeVersion === 1)
            return true;
        if (!(0, n8n_workflow_1.nodeParametersAreStatic)(startNode))`,
			to: `        if (!(0, n8n_workflow_1.nodeParametersAreStatic)(startNode))`,
		},
	],
	'n8n/dist/webhooks/webhook-helpers.js': [
		{
			// A typeVersion-1 start node's \`binaryData\` option: read from the parameters when they
			// are static, with the same walk the \`$parameter\` proxy does (n8n's fromParameter),
			// else through the engine as before.
			from: `    if (nodeVersion === 1) {
        binaryData = workflow.expression.getSimpleParameterValue(workflowStartNode, '={{$parameter["options"]["binaryData"]}}', executionMode, additionalKeys, undefined, false);
    }`,
			to: `    if (nodeVersion === 1) {
        binaryData = (0, n8n_workflow_1.nodeParametersAreStatic)(workflowStartNode)
            ? (0, n8n_workflow_1.fromParameter)(['options', 'binaryData']).resolve(workflowStartNode.parameters)
            : workflow.expression.getSimpleParameterValue(workflowStartNode, '={{$parameter["options"]["binaryData"]}}', executionMode, additionalKeys, undefined, false);
    }`,
		},
	],
};

/**
 * Builds the patched copies of an installed n8n (its cache folder, e.g.
 * ~/.cache/n8n-nodes-company-payments/n8n-2.41.1) in `workDir`.
 *
 * @returns {{ env: Record<string, string>, diff: string, files: string[],
 *             check: (logText: string) => void }}
 */
export function patchedN8n(installDir, workDir) {
	fs.rmSync(workDir, { recursive: true, force: true });
	fs.mkdirSync(workDir, { recursive: true });
	const replacements = {};
	const diffs = [];
	for (const [relative, edits] of Object.entries(EDITS)) {
		// Node compiles a module under its real path (symlinks resolved).
		const original = fs.realpathSync(path.join(installDir, 'node_modules', relative));
		let text = fs.readFileSync(original, 'utf8');
		for (const { from, to } of edits) {
			if (text.split(from).length !== 2) {
				throw new Error(`${original}: the text to change is not there once (another n8n version?)`);
			}
			text = text.replace(from, to);
		}
		const copy = path.join(workDir, relative.replace(/\//g, '__'));
		fs.writeFileSync(copy, text);
		replacements[original] = copy;
		diffs.push(unifiedDiff(original, copy, relative));
	}
	const diff = diffs.join('');
	fs.writeFileSync(path.join(workDir, 'upstream.diff'), diff);
	const files = Object.keys(replacements);
	return {
		env: {
			NODE_OPTIONS: `--require=${PRELOAD}`,
			COMPANY_PAYMENTS_PATCHED_FILES: JSON.stringify(replacements),
		},
		diff,
		files,
		/** Throws unless n8n's log shows every copy compiled in place of its original. */
		check(logText) {
			const missing = files.filter((file) => !logText.includes(`${MARK} ${file}`));
			if (missing.length > 0) {
				throw new Error(`n8n did not load the patched copies of ${missing.join(', ')}`);
			}
		},
	};
}

/** `diff -u` of a file and its copy, labelled a/<relative> and b/<relative>. */
function unifiedDiff(original, copy, relative) {
	try {
		execFileSync(
			'diff',
			['-u', '--label', `a/${relative}`, '--label', `b/${relative}`, original, copy],
			{
				encoding: 'utf8',
			},
		);
		return '';
	} catch (error) {
		if (error.status === 1) return error.stdout; // differences found
		throw error;
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { ensureN8n } = await import('../harness/n8n.mjs');
	const install = await ensureN8n({
		version: process.env.COMPANY_PAYMENTS_N8N_VERSION ?? '2.41.1',
	});
	const patched = patchedN8n(install.dir, path.join(ROOT, 'bench', '.work', 'upstream'));
	process.stdout.write(patched.diff);
}
