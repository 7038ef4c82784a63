/**
 * A scripted OpenAI-compatible chat model on 127.0.0.1, for n8n's AI Agent with the OpenAI Chat
 * Model node pointed at it (credential `openAiApi`, Base URL `<url>/v1`).
 *
 * It answers `POST /v1/chat/completions` (plain JSON or, when asked for `stream: true`,
 * server-sent events) and `GET /v1/models`, and records every request body it receives in
 * `requests`, so a test can assert on exactly what reached the model.
 *
 * What it says comes from a script: the last user message names a scenario (`scenario: <name>`),
 * and the scenario's step is chosen by how many answers the model already gave in this
 * conversation (the assistant messages in the request). A step is
 *   { call: [{ name, args }] }        tool calls, arguments as an object
 *   { say: 'text' }                    a final answer
 * or a function of the conversation `({ toolResults, tools, request }) => step`, where
 * `toolResults` are the tool messages so far (content parsed as JSON where it is JSON).
 * An unknown scenario, or a step past the end of the script, answers with an error text so a
 * test fails with a readable message rather than hanging.
 */
import http from 'node:http';

function parse(text) {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => part?.text ?? '').join('');
	return '';
}

/** The conversation as the script sees it. */
export function conversationOf(request) {
	const messages = Array.isArray(request.messages) ? request.messages : [];
	const userText = messages
		.filter((message) => message.role === 'user')
		.map((message) => textOf(message.content))
		.join('\n');
	const scenario = /scenario:\s*([\w-]+)/.exec(userText)?.[1] ?? null;
	const step = messages.filter((message) => message.role === 'assistant').length;
	const toolResults = messages
		.filter((message) => message.role === 'tool')
		.map((message) => ({ id: message.tool_call_id, content: parse(textOf(message.content)) }));
	const tools = (request.tools ?? []).map((tool) => tool.function ?? tool);
	return { scenario, step, toolResults, tools, request, userText };
}

function completion(model, message, finishReason) {
	return {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

function streamChunks(model, message, finishReason) {
	const base = {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model,
	};
	const delta = { role: 'assistant', content: message.content ?? '' };
	if (message.tool_calls) {
		delta.tool_calls = message.tool_calls.map((call, index) => ({ index, ...call }));
	}
	return [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] },
	];
}

/**
 * @param {{ scripts: Record<string, Array<object | Function>> }} options
 * @returns {Promise<{ url: string, requests: object[], calls: object[], close: () => Promise<void> }>}
 */
export async function startModelServer({ scripts }) {
	const requests = [];
	/** Every tool call the model made: { scenario, name, args, id }. */
	const calls = [];
	let counter = 0;

	function answer(request) {
		const conversation = conversationOf(request);
		const script = scripts[conversation.scenario];
		let step = script?.[conversation.step];
		if (typeof step === 'function') step = step(conversation);
		if (!step) {
			return {
				message: {
					role: 'assistant',
					content: `model-server: no step ${conversation.step} for scenario ${conversation.scenario}`,
				},
				finish: 'stop',
			};
		}
		if (step.call) {
			const toolCalls = step.call.map(({ name, args }) => {
				const id = `call_${conversation.scenario}_${conversation.step}_${++counter}`;
				calls.push({ scenario: conversation.scenario, name, args, id });
				return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
			});
			return {
				message: { role: 'assistant', content: null, tool_calls: toolCalls },
				finish: 'tool_calls',
			};
		}
		return { message: { role: 'assistant', content: step.say }, finish: 'stop' };
	}

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			const send = (status, body) => {
				res.writeHead(status, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			if (req.method === 'GET' && req.url.endsWith('/models')) {
				send(200, {
					object: 'list',
					data: [{ id: 'scripted', object: 'model', owned_by: 'test' }],
				});
				return;
			}
			if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
				send(404, { error: { message: `model-server: no ${req.method} ${req.url}` } });
				return;
			}
			const request = parse(raw);
			requests.push({ url: req.url, raw, body: request });
			const { message, finish } = answer(request);
			const model = request.model ?? 'scripted';
			if (request.stream) {
				res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
				for (const chunk of streamChunks(model, message, finish)) {
					res.write(`data: ${JSON.stringify(chunk)}\n\n`);
				}
				res.end('data: [DONE]\n\n');
				return;
			}
			send(200, completion(model, message, finish));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		url,
		requests,
		calls,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
