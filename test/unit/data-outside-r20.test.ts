// Outside read r20-data, finding 5: an amount to USDT's six decimals after four whole digits
// (`1500.123456 USDT`) read as the first groups of a card cut short (4-6, American Express'
// grouping) and masked. That grouping is American Express' and Diners', whose numbers start with 3.
import { gateText } from '../../nodes/shared/gate';

describe('r20-data finding 5: a 4-6 grouping is a cut card only where a card of that grouping starts', () => {
	it.each([
		'Списано 1500.123456 USDT, остаток 2500.000000 USDT',
		'x 1234-567890 y',
		'balance 9999.000001',
	])('%s is kept as written, for the user and the model', (text) => {
		expect(gateText(undefined, text, 'user')).toBe(text);
		expect(gateText(undefined, text, 'model')).toBe(text);
	});

	it.each(['Amex 3782 822463 1...', 'card 3782 822463…', 'paid with 3714-496353…'])(
		'%s is still masked',
		(text) => {
			expect(gateText(undefined, text, 'user')).not.toMatch(/822463|496353/);
		},
	);
});
