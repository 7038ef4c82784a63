// Runs inside the Node of an installed n8n (bench/authenticate.mjs starts it): the cost per
// request of the two forms of a credential's `authenticate`, as n8n's credentials helper
// applies them. The generic object: its `={{$credentials.apiKey}}` resolved with the workflow's
// expression engine (credentials-helper's resolveValue: getSimpleParameterValue with
// `$credentials`), inside an execution that holds its expression isolate (n8n 2.36 and later).
// The function: called as it is. Prints one JSON line.
const [n8nDir, engine, countText] = process.argv.slice(2);
const { Workflow, Expression } = require(`${n8nDir}/node_modules/n8n-workflow`);

async function main() {
	if (engine === 'vm') await Expression.initExpressionEngine({ engine: 'vm', poolSize: 1 });
	const node = {
		id: '1',
		name: 'CP',
		type: 'x.cp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const type = { description: { properties: [], inputs: ['main'], outputs: ['main'] } };
	const nodeTypes = {
		getByName: () => type,
		getByNameAndVersion: () => type,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	if (engine === 'vm') await workflow.expression.acquireIsolate();
	const credentials = { apiKey: 'sk_dummy_0123456789abcdef', baseUrl: 'http://127.0.0.1:1' };
	const generic = () => {
		const value = workflow.expression.getSimpleParameterValue(
			node,
			'={{$credentials.apiKey}}',
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return { headers: { 'X-API-Key': String(value) } };
	};
	const asFunction = async (options) => ({
		...options,
		headers: { ...options.headers, 'X-API-Key': credentials.apiKey },
	});
	const count = Number(countText) || 2000;
	for (let i = 0; i < 200; i++) {
		generic();
		await asFunction({});
	}
	if (generic().headers['X-API-Key'] !== credentials.apiKey) throw new Error('not resolved');
	let start = process.hrtime.bigint();
	for (let i = 0; i < count; i++) generic();
	const genericUs = Number(process.hrtime.bigint() - start) / 1e3 / count;
	start = process.hrtime.bigint();
	for (let i = 0; i < count; i++) await asFunction({});
	const functionUs = Number(process.hrtime.bigint() - start) / 1e3 / count;
	console.log(JSON.stringify({ engine, node: process.version, count, genericUs, functionUs }));
	process.exit(0);
}
main().catch((error) => {
	console.error(error);
	process.exit(1);
});
