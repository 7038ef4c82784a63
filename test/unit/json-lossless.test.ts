import { exactAsDouble, parseJsonLossless } from '../../nodes/shared/transport/json';

/*
 * The service's JSON read to the digit (issue 50, item 1): identifiers as text, integers past
 * 2^53 and decimals a double cannot hold kept as written, everything else as JSON.parse gives it.
 */
describe('parseJsonLossless', () => {
	it('keeps two 19-digit deposit IDs apart, as text, byte for byte', () => {
		const text =
			'{"items":[{"depositId":1790123400012345600,"amount":"10"},{"depositId":1790123400012345601,"amount":2500}]}';
		const parsed = parseJsonLossless(text) as {
			items: Array<{ depositId: unknown; amount: unknown }>;
		};
		expect(parsed.items.map((item) => item.depositId)).toEqual([
			'1790123400012345600',
			'1790123400012345601',
		]);
		expect(parsed.items[1].amount).toBe(2500);
		// What JSON.parse does to them: one number for both.
		const lossy = JSON.parse(text) as typeof parsed;
		expect(lossy.items[0].depositId).toBe(lossy.items[1].depositId);
	});

	it('gives an identifier as text whatever its JSON type, also a small one and in a list', () => {
		expect(parseJsonLossless('{"id":12,"orderIds":[1,2],"txHash":7,"n":12}')).toEqual({
			id: '12',
			orderIds: ['1', '2'],
			txHash: '7',
			n: 12,
		});
	});

	it('keeps an identifier written with a decimal point or an exponent as written', () => {
		expect(parseJsonLossless('{"id":12.0,"payoutId":1e3,"x":1}')).toEqual({
			id: '12.0',
			payoutId: '1e3',
			x: 1,
		});
	});

	it('reads zeros and negative zeros as written', () => {
		expect(parseJsonLossless('{"id":0,"amount":0,"orderId":-0,"n":-0.0}')).toEqual({
			id: '0',
			amount: 0,
			orderId: '-0',
			n: -0,
		});
	});

	it('keeps any number past 2^53 as its written text, never rounded', () => {
		expect(parseJsonLossless('{"count":9007199254740993,"small":9007199254740991}')).toEqual({
			count: '9007199254740993',
			small: 9007199254740991,
		});
		expect(parseJsonLossless('-12345678901234567890')).toBe('-12345678901234567890');
	});

	it('keeps amounts: exact ones as numbers, one a double cannot hold as written', () => {
		expect(
			parseJsonLossless('{"amountRub":1500.5,"rate":0.1234567890123456789,"fee":"1.10"}'),
		).toEqual({ amountRub: 1500.5, rate: '0.1234567890123456789', fee: '1.10' });
		// A double gives back 1234567890.1234567 (its shortest decimal is the text): a number.
		// 1234567890.12345678 it does not: the text (outside read 2, finding 9).
		expect(parseJsonLossless('{"amount":1234567890.1234567}')).toEqual({
			amount: 1234567890.1234567,
		});
		expect(parseJsonLossless('{"amount":1234567890.12345678}')).toEqual({
			amount: '1234567890.12345678',
		});
	});

	it('reads strings, escapes, nesting, literals and __proto__ as JSON.parse does', () => {
		const text =
			'{"__proto__":{"a":1},"n":null,"t":true,"f":false,"s":"a\\u002fb\\\\ \\"q\\"","d":{"e":[[],{}]},"big":12345678901234567890}';
		const parsed = parseJsonLossless(text) as Record<string, unknown>;
		const plain = JSON.parse(text) as Record<string, unknown>;
		expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
		for (const key of ['n', 't', 'f', 's', 'd']) expect(parsed[key]).toEqual(plain[key]);
		expect(parsed.big).toBe('12345678901234567890');
	});

	it('refuses what JSON.parse refuses', () => {
		for (const bad of ['{', '{"a":}', '[1,]', '{"a":1}x', '01', '"\u0001"', '{"a":1,}', 'nul']) {
			expect(() => JSON.parse(bad)).toThrow(SyntaxError);
			expect(() => parseJsonLossless(bad)).toThrow(SyntaxError);
			// The long-number path as well.
			expect(() => parseJsonLossless(`[12345678901234567890,${bad}]`)).toThrow(SyntaxError);
		}
	});

	it('gives the same result on both paths for the same text', () => {
		const text = '{"id":5,"amountUsdt":10.25,"list":[{"cardId":77}],"note":"x"}';
		const slow = parseJsonLossless(`{"pad":12345678901234567890,"v":${text}}`) as { v: unknown };
		expect(slow.v).toEqual(parseJsonLossless(text));
	});

	it('tells which written numbers a double holds', () => {
		expect(exactAsDouble('123456789012345')).toBe(true);
		expect(exactAsDouble('9007199254740991')).toBe(true);
		expect(exactAsDouble('9007199254740993')).toBe(false);
		expect(exactAsDouble('0.000000000000001')).toBe(true);
		expect(exactAsDouble('1.0000000000000001')).toBe(false);
	});
});
