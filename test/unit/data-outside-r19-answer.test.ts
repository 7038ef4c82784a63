// Outside read r19-data (issue 50), finding 9: Get Card Number and CVV with Mask Card Number and
// CVV on (and always as a tool) showed the answer's own CVV in another text of the answer after a
// comma (`Номер 2200150012345671,321`, `Срок и код: 12/27,321`), read as a decimal's part; after
// `;`, `/` or `|` it was masked. A comma after a card number (masked or not) or a month/year is a
// list's separator; after a plain number it is still a decimal's (`Сумма 12,321 USDT` stays).
import nock from 'nock';

import { BASE_URL, runNode, runTool } from './helpers/n8n';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const params = {
	resource: 'card',
	operation: 'getSensitiveData',
	cardId: { __rl: true, mode: 'id', value: 'card_1' },
	maskSensitiveData: true,
};
function answer(message: string): void {
	nock(BASE_URL).get('/cards/card_1/sensitive').reply(200, {
		cardId: 'card_1',
		cardNumberFull: '2200150012345671',
		cardCvv: '321',
		expiry: '12/27',
		message,
	});
}
async function messageOf(message: string, tool: boolean): Promise<string> {
	answer(message);
	const json = tool
		? (await runTool({ parameters: params })).output[0]
		: (await runNode({ parameters: params })).output[0].json;
	expect(json.cardCvv).toBe('•••');
	return String(json.message);
}

describe.each([
	['the user, masking on', false],
	['the model', true],
])('F9: %s', (_who, tool) => {
	it.each([
		['Номер 2200150012345671,321', 'Номер •••• 5671,'],
		['Срок и код: 12/27,321', 'Срок и код: 12/27,'],
		['Карта 2200 1500 1234 5671,321', 'Карта •••• 5671,'],
		['Номер 2200150012345671;321', 'Номер •••• 5671;'],
	])('%s', async (message, kept) => {
		const shown = await messageOf(message, tool);
		expect(shown).not.toContain('321');
		// What stands before the CVV is kept; the CVV is hidden as a learned secret is.
		expect(shown).toBe(`${kept}${tool ? '[hidden from the AI model]' : '[hidden]'}`);
	});

	it.each(['Сумма 12,321 USDT', 'Курс 1.321', 'Остаток 4 321,50', 'Лимит 1,321,000'])(
		'a number of the text stays: %s',
		async (message) => {
			expect(await messageOf(message, tool)).toBe(message);
		},
	);
});
