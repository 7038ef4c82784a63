// The second outside read of secrets (r2-data-secrets): each finding as it was found, through the
// doors a user and a model read (output items, errors, tool results, pickers, the webhook item).
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
} from 'n8n-workflow';
import nock from 'nock';

import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import type { ContextOptions } from './helpers/n8n';
import { API_KEY, BASE_URL, createContext, runNode, runNodeError } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

async function runTool(options: ContextOptions) {
	const context = createContext(options);
	const node = context.getNode() as INode;
	node.type = 'n8n-nodes-company-payments.companyPaymentsTool';
	node.parameters = { ...(options.parameters as IDataObject) } as INode['parameters'];
	const result = await new CompanyPayments().execute.call(context);
	return result[0].map((item) => item.json);
}

/** Every text a reader can see in a value, an error's own properties too. */
export function allText(value: unknown, seen = new Set<object>()): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	const keys = value instanceof Error ? Object.getOwnPropertyNames(value) : Object.keys(value);
	return keys
		.filter((key) => key !== 'node')
		.map((key) => `${key}=${allText((value as Record<string, unknown>)[key], seen)}`)
		.join(' | ');
}

// Built, so that no literal in the test is a credential.
const WH = ['whsec', 'c0ffee12'.repeat(6)].join('_');
const SESSION = ['sess', 'TOKEN9f8e7d6c5b4a39281'].join('');
const NEW_KEY = ['NEWKEY', '0123456789abcdefABCDEF'].join('');
const PASSWORD = ['Pa55', 'word!xyz'].join('');
const INVITE = ['inv0123456789', 'abcdefTOKEN'].join('');

describe('finding 1: a new key nested in the answer', () => {
	it('Login opens only the nested key, never the session token or the webhook secret', async () => {
		nock(BASE_URL)
			.post('/auth/company/login')
			.reply(200, {
				accessToken: SESSION,
				company: { id: 'c1', apiKey: NEW_KEY, webhookSecret: WH },
			});
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'login', email: 'a@b.co', password: PASSWORD },
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBe('company.apiKey');
		expect((json.company as IDataObject).apiKey).toBe(NEW_KEY);
		expect((json.company as IDataObject).id).toBe('c1');
		const text = allText(json);
		expect(text).not.toContain(SESSION);
		expect(text).not.toContain(WH);
	});

	it('Invite Accept opens member.apiKey; the echoed password and the session stay masked', async () => {
		nock(BASE_URL)
			.post(/\/auth\/invites\/.*\/accept/)
			.reply(200, {
				session: { token: SESSION },
				member: { userId: 'u1', apiKey: NEW_KEY },
				password: PASSWORD,
			});
		const { output } = await runNode({
			parameters: {
				resource: 'invite',
				operation: 'accept',
				inviteToken: INVITE,
				email: 'a@b.co',
				password: PASSWORD,
			},
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBe('member.apiKey');
		expect((json.member as IDataObject).apiKey).toBe(NEW_KEY);
		const text = allText(json);
		expect(text).not.toContain(SESSION);
		expect(text).not.toContain(PASSWORD);
	});

	it('Regenerate with apiKey as an object opens apiKey.value only', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, { apiKey: { value: NEW_KEY, createdAt: '2026' }, webhookSecret: WH });
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBe('apiKey.value');
		expect((json.apiKey as IDataObject).value).toBe(NEW_KEY);
		expect(allText(json)).not.toContain(WH);
	});

	it('with no key found, reveals nothing and says where to look', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, {
				credentials: { secretValue: NEW_KEY },
				sessionToken: SESSION,
				webhookSecret: WH,
			});
		const { output } = await runNode({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		const json = output[0].json;
		expect(json.apiKeyField).toBeNull();
		expect(json.notice).toContain('credentials.secretValue');
		const text = allText(json);
		for (const secret of [NEW_KEY, SESSION, WH]) expect(text).not.toContain(secret);
	});

	it('the model never gets the key, nested or not', async () => {
		nock(BASE_URL)
			.post('/auth/company/regenerate-key')
			.reply(200, { company: { apiKey: NEW_KEY, webhookSecret: WH } });
		const items = await runTool({
			parameters: { resource: 'company', operation: 'regenerateApiKey' },
		});
		const text = allText(items);
		expect(text).not.toContain(NEW_KEY);
		expect(text).not.toContain(WH);
	});
});

const MEMBER_KEY = ['mbr', 'Q1w2E3r4T5y6U7i8O9p0AsDf'].join('_');
const PWD = ['Hunter2', 'Hunter2!'].join('');

describe('finding 8: a member operation error body is closed like a member', () => {
	const shapes: Array<[string, IDataObject | null, string]> = [
		['memberKey', { member: { userId: 'u2', role: 'owner', memberKey: MEMBER_KEY } }, MEMBER_KEY],
		['userKey', { userKey: MEMBER_KEY }, MEMBER_KEY],
		['keyValue', { keyValue: MEMBER_KEY }, MEMBER_KEY],
		['members[].access', { members: [{ userId: 'u2', access: MEMBER_KEY }] }, MEMBER_KEY],
		['pwd', { pwd: PWD }, PWD],
		['passcode', { passcode: PWD }, PWD],
		['message only', null, MEMBER_KEY],
	];
	for (const tool of [false, true]) {
		for (const [name, details, secret] of shapes) {
			it(`${tool ? 'tool' : 'user'}: ${name}`, async () => {
				nock(BASE_URL)
					.delete(/\/members\//)
					.reply(403, {
						statusCode: 403,
						errorCode: 'FORBIDDEN',
						message:
							details === null
								? `Ключ участника ${MEMBER_KEY} принадлежит последнему владельцу`
								: 'Нельзя удалить последнего владельца',
						...(details ? { details } : {}),
						requestId: 'req-77',
					});
				const parameters = {
					resource: 'member',
					operation: 'remove',
					userId: { __rl: true, mode: 'id', value: 'u2' },
				};
				const shown = tool ? await runTool({ parameters }) : await runNodeError({ parameters });
				const text = allText(shown);
				expect(text).not.toContain(secret);
				expect(text).toContain('req-77');
				expect(text).toContain('FORBIDDEN');
				if (name === 'memberKey') expect(text).toContain('u2');
			});
		}
	}
});

const BASE_PASSWORD = ['Pw9x', 'BaseUrlSecret77'].join('');

describe('finding 9: a From list picker that fails', () => {
	type Search = (this: ILoadOptionsFunctions, filter?: string) => Promise<INodeListSearchResult>;
	const methods = new CompanyPayments().methods.listSearch as unknown as Record<string, Search>;
	const credentials = {
		environment: 'staging',
		baseUrl: `https://ops:${BASE_PASSWORD}@api.payments.test`,
		apiKey: API_KEY,
		webhookSecret: '',
	};

	async function failed(baseUrl = credentials.baseUrl): Promise<string> {
		const context = createContext({
			parameters: { resource: 'member', operation: 'remove' },
			credentials: { ...credentials, baseUrl },
		}) as unknown as ILoadOptionsFunctions;
		try {
			await methods.getMembers.call(context, '');
		} catch (error) {
			return allText(error);
		}
		throw new Error('the picker did not fail');
	}

	it('hides the Base URL password and the key a service echoes', async () => {
		nock(BASE_URL)
			.get(/\/members/)
			.reply(500, {
				statusCode: 500,
				errorCode: 'INTERNAL_ERROR',
				message: `key ${API_KEY} failed at https://ops:${BASE_PASSWORD}@api.payments.test/members`,
			});
		const text = await failed(BASE_URL);
		expect(text).toContain('INTERNAL_ERROR');
		expect(text).not.toContain(BASE_PASSWORD);
		expect(text).not.toContain(API_KEY);
	});

	it('hides the Base URL password when the service cannot be reached', async () => {
		const text = await failed();
		expect(text).not.toContain(BASE_PASSWORD);
	});
});
