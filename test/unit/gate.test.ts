// Issue 37: the three secrets the fifth outside read got through, each as it was found, and what
// Reveal opens (its own field, nothing else). The canary suite (canary.test.ts) covers every
// operation and position; these cases name the holes.
import nock from 'nock';

import { BASE_URL, runNode, runNodeError, runTool } from './helpers/n8n';

const CURRENT = `whsec_dummy${'3c'.repeat(21)}ab`;
const PREVIOUS = `whsec_dummy${'9f'.repeat(21)}cd`;
/** An invite token as a service may make it: no prefix, no shape. */
const TOKEN = ['Zq8', 'Lm2Wx7', 'Pt4Rk9', 'Vb'].join('');
const CARD = '4000056655665556';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('the fifth read: each secret as it got through', () => {
	it('a profile listing its webhook secrets as an array under one field: neither is output', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { name: 'Acme', webhookSecret: [CURRENT, PREVIOUS], webhookUrl: null });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile' },
		});
		const text = JSON.stringify(output);
		expect(text).not.toContain(CURRENT.slice(0, 30));
		expect(text).not.toContain(PREVIOUS.slice(0, 30));
		expect(output[0].json.webhookSecret).toHaveLength(2);
		expect(output[0].json.name).toBe('Acme');
	});

	it('an invite token the service also returns under another field name never reaches the model', async () => {
		const invite = {
			id: 'inv-1',
			email: 'new@corp.example',
			status: 'pending',
			url: `https://cabinet.example.com/join/${TOKEN}`,
			inviteCode: TOKEN,
		};
		nock(BASE_URL)
			.persist()
			.get('/members/invites')
			.query(true)
			.reply((uri) => [200, { invites: uri.includes('offset=0') ? [invite] : [] }]);
		const output = (
			await runTool({
				parameters: {
					resource: 'invite',
					operation: 'getMany',
					returnAll: true,
					compactOutput: false,
				},
			})
		).output;
		expect(JSON.stringify(output)).not.toContain(TOKEN);
		expect(output[0]).toMatchObject({ id: 'inv-1', status: 'pending' });
	});

	it("an invite token in an error's Location line, in normal mode: not in the error", async () => {
		nock(BASE_URL)
			.get('/members/invites')
			.query(true)
			.reply(302, '', { Location: `https://cabinet.example.com/invite/${TOKEN}/accept` });
		const error = await runNodeError({
			parameters: { resource: 'invite', operation: 'getMany', returnAll: true },
		});
		const seen = JSON.stringify(error, Object.getOwnPropertyNames(error));
		expect(seen).toContain('Location: https://cabinet.example.com/invite/[hidden]/accept');
		expect(seen).not.toContain(TOKEN);
	});
});

describe('Reveal opens its own field and nothing else', () => {
	it('Reveal Webhook Secret: the secret in full in webhookSecret, hidden wherever else it is', async () => {
		nock(BASE_URL)
			.get('/auth/company/profile')
			.reply(200, { webhookSecret: CURRENT, note: `signing with ${CURRENT}`, old: [PREVIOUS] });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'getProfile', revealWebhookSecret: true },
		});
		expect(output[0].json.webhookSecret).toBe(CURRENT);
		expect(JSON.stringify({ ...output[0].json, webhookSecret: null })).not.toContain(
			CURRENT.slice(0, 30),
		);
		expect(JSON.stringify(output)).not.toContain(PREVIOUS.slice(0, 30));
	});

	it('Mask Card Number and CVV off: number and CVV in their fields, hidden under any other', async () => {
		nock(BASE_URL).get('/cards/card_1/sensitive').reply(200, {
			cardId: 'card_1',
			cardNumberFull: CARD,
			cardCvv: '739',
			panCopy: CARD,
			c: '739',
		});
		const { output } = await runNode({
			parameters: {
				resource: 'card',
				operation: 'getSensitiveData',
				cardId: 'card_1',
				maskSensitiveData: false,
			},
		});
		expect(output[0].json).toMatchObject({ cardNumberFull: CARD, cardCvv: '739', masked: false });
		expect(output[0].json.panCopy).toBe('•••• 5556');
		expect(output[0].json.c).toBe('[hidden]');
	});

	it('as a tool, Reveal Webhook Secret opens nothing', async () => {
		nock(BASE_URL).get('/auth/company/profile').reply(200, { webhookSecret: CURRENT });
		const output = (
			await runTool({
				parameters: { resource: 'company', operation: 'getProfile', revealWebhookSecret: true },
			})
		).output;
		expect(JSON.stringify(output)).not.toContain(CURRENT.slice(0, 30));
	});
});

describe('what is not a secret stays readable', () => {
	it('an ID in a link of the answer (a query, a record URL) is not learned as a secret', async () => {
		const orderId = '05de5314-55d3-495e-86c3-db85168e127a';
		nock(BASE_URL)
			.get(`/orders/${orderId}`)
			.reply(200, {
				id: orderId,
				status: 'success',
				url: `https://cabinet.example.com/orders/${orderId}`,
				path: `/disputes?orderId=${orderId}&limit=10`,
			});
		const { output } = await runNode({
			parameters: { resource: 'order', operation: 'get', orderId },
		});
		expect(output[0].json).toMatchObject({
			id: orderId,
			url: `https://cabinet.example.com/orders/${orderId}`,
			path: `/disputes?orderId=${orderId}&limit=10`,
		});
	});
});
