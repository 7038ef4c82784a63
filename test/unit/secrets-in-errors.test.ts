import type { IDataObject } from 'n8n-workflow';
import nock from 'nock';

import { BASE_URL, runNode } from './helpers/n8n';

/**
 * Errors reach execution logs, error workflows and AI models. An invite's token (it lets whoever
 * holds it join the company), a card number and CVV, or a new member's API key must not travel
 * in one: neither the token in the path of an invite call, nor the text of a successful answer
 * that could not be read.
 */
const TOKEN = 'tok_dummy_7Qm2ZkP9xW4tLr8s';
const CARD_NUMBER = '2200123456789012';
const CVV = '737';
const NEW_KEY = 'ak_dummy_newmember_998877';

/** Every text of the failed item (Continue On Fail), as a user or a model would read it. */
async function failedItem(parameters: Record<string, unknown>): Promise<string> {
	const { output } = await runNode({ parameters: parameters as IDataObject, continueOnFail: true });
	expect(output).toHaveLength(1);
	expect(output[0].json.error).toBeDefined();
	return JSON.stringify(output[0].json);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('an invite token never appears in an error', () => {
	const preview = {
		resource: 'invite',
		operation: 'preview',
		inviteToken: `https://cabinet.example.com/join?token=${TOKEN}`,
	};
	const accept = {
		resource: 'invite',
		operation: 'accept',
		inviteToken: TOKEN,
		email: 'new@corp.example',
		password: 'Secret-Passw0rd',
	};

	it.each([
		[
			'the connection is reset',
			() =>
				nock(BASE_URL)
					.get(`/auth/invites/${TOKEN}`)
					.replyWithError({ code: 'ECONNRESET', message: 'socket hang up' }),
		],
		[
			'a redirect',
			() =>
				nock(BASE_URL)
					.get(`/auth/invites/${TOKEN}`)
					.reply(302, '', { Location: 'https://login.example.com/sso' }),
		],
		[
			'a 200 that is not JSON',
			() => nock(BASE_URL).get(`/auth/invites/${TOKEN}`).reply(200, '<html>Maintenance</html>'),
		],
	])('Preview, %s', async (_case, serve) => {
		serve();
		const text = await failedItem(preview);
		expect(text).not.toContain(TOKEN);
		expect(text).toContain('[invite token hidden]');
	});

	it('Accept, answered 201 with a cut-short body: neither the token nor the new key', async () => {
		nock(BASE_URL)
			.post(`/auth/invites/${TOKEN}/accept`)
			.reply(201, `{"apiKey":"${NEW_KEY}","sessionToken":"eyJhbGciOi`);
		const text = await failedItem(accept);
		expect(text).not.toContain(TOKEN);
		expect(text).not.toContain(NEW_KEY);
		expect(text).toMatch(/not shown \(a successful answer may carry secrets\)/);
	});
});

it('Get Card Number and CVV answered with a cut-short body: the error shows neither', async () => {
	nock(BASE_URL)
		.get('/cards/card_1/sensitive')
		.reply(
			200,
			`{"cardId":"card_1","cardNumberFull":"${CARD_NUMBER}","cardCvv":"${CVV}","expiry":"12/2`,
		);
	const text = await failedItem({
		resource: 'card',
		operation: 'getSensitiveData',
		cardId: 'card_1',
	});
	expect(text).not.toContain(CARD_NUMBER);
	expect(text).not.toContain(`"${CVV}"`);
	expect(text).toMatch(/HTTP status: 200/);
});

it('Preview of an unknown token: the service error body echoes the path, shown without the token', async () => {
	nock(BASE_URL)
		.get(`/auth/invites/${TOKEN}`)
		.reply(404, {
			statusCode: 404,
			error: 'Not Found',
			errorCode: 'INVITE_NOT_FOUND',
			message: `Приглашение ${TOKEN} не найдено`,
			path: `/api/auth/invites/${TOKEN}`,
		});
	let thrown: unknown;
	try {
		await runNode({ parameters: { resource: 'invite', operation: 'preview', inviteToken: TOKEN } });
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeDefined();
	const seen = JSON.stringify(thrown, Object.getOwnPropertyNames(thrown as object));
	expect(seen).toContain('INVITE_NOT_FOUND');
	expect(seen).not.toContain(TOKEN);
});
