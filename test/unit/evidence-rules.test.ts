import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { readDetails } from '../../nodes/shared/money';
import type { MoneyDetail } from '../../nodes/shared/money';
import { resources } from '../../nodes/CompanyPayments/resources';
import type { OperationDefinition } from '../../nodes/CompanyPayments/types';
import { EVIDENCE_RULES } from '../../nodes/shared/money/evidence';
import type { DetailKind, Shown, Verdict } from '../../nodes/shared/money/evidence';
import { createContext } from './helpers/n8n';

/**
 * Issue 44.2, generated: every money operation (read from the node's description) × every detail
 * its money contract declares × every way the service may show it {shown, masked, absent,
 * different}, judged against the one table of the rules (EVIDENCE_RULES, which docs/assumptions.md
 * states: test/docs/evidence.test.mjs checks the page against it).
 */

type Form = Shown;
type Expected = Verdict;

const RULES = EVIDENCE_RULES;

/** An example for a field: its placeholder less "e.g.", else `<name>_1`. */
function example(property: INodeProperties): string {
	const shown = String(property.placeholder ?? '').replace(/^e\.g\.\s*/, '');
	return shown !== '' ? shown : `${property.name}_1`;
}

function visible(property: INodeProperties, parameters: IDataObject): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(
		([name, values]) => name.startsWith('@') || (values as unknown[]).includes(parameters[name]),
	);
}

/**
 * Parameter sets of an operation, made from its description alone: one per value of each option
 * field (a payout to a card and to a phone), every field filled with its example, every option of
 * a collection too, so that every declared detail is asked.
 */
function parameterSets(operation: OperationDefinition): IDataObject[] {
	const optionFields = operation.properties.filter((p) => p.type === 'options');
	let sets: IDataObject[] = [{}];
	for (const field of optionFields) {
		const values = (field.options ?? []).map((o) => (o as { value: string }).value);
		sets = sets.flatMap((set) => values.map((value) => ({ ...set, [field.name]: value })));
	}
	return sets.map((set) => {
		const out: IDataObject = { ...set };
		for (const property of operation.properties) {
			if (property.type === 'options' || !visible(property, out) || property.name in out) continue;
			if (property.name === 'idempotencyKey') continue;
			if (property.type === 'collection') {
				const inner: IDataObject = {};
				for (const option of (property.options ?? []) as INodeProperties[]) {
					inner[option.name] = example(option);
				}
				out[property.name] = inner;
				continue;
			}
			out[property.name] =
				property.type === 'resourceLocator'
					? { __rl: true, mode: 'id', value: `${property.name}_1` }
					: example(property);
		}
		return out;
	});
}

/** What an operation's answer carries that a detail may read what was asked from (a quote). */
const ANSWER_CONTEXT: IDataObject = { quote: { amountRub: 900, merchantName: 'Shop' } };

/** The field of a record a detail reads, found by trying (its own name, else `id`). */
function fieldOf(detail: MoneyDetail): string {
	for (const field of [detail.name, 'id']) {
		if (detail.answered({ [field]: 'probe' }) === 'probe') return field;
	}
	throw new Error(`detail ${detail.name}: no record field found that it reads`);
}

/** A card or phone number as a service would mask it: the first 6 (card) or 4 and the last 2 to 4 digits kept. */
function maskOf(digits: string): string {
	if (digits.length >= 16)
		return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
	return `+${digits.slice(0, 4)} ***-**-${digits.slice(-2)}`;
}

function shownAs(kind: DetailKind, asked: unknown, form: Form): unknown {
	const text = String(asked);
	switch (form) {
		case 'shown':
			return asked;
		case 'absent':
			return null;
		case 'masked':
			return kind === 'requisite' ? maskOf(phoneOrCard(text)) : '****';
		case 'different':
			if (kind === 'requisite') {
				const digits = text.replace(/\D/g, '');
				return `${digits.slice(0, -1)}${digits.endsWith('1') ? '2' : '1'}`;
			}
			return typeof asked === 'number' ? asked + 1 : `${text}9`;
	}
}

/** A requisite's digits as the service writes a phone (+7…) or a card. */
function phoneOrCard(text: string): string {
	const digits = text.replace(/\D/g, '');
	if (digits.length === 11 && digits.startsWith('8')) return `7${digits.slice(1)}`;
	return digits.length === 10 ? `7${digits}` : digits;
}

const CASES = resources.flatMap((resource) =>
	resource.operations
		.filter((operation) => operation.kind === 'money')
		.flatMap((operation) =>
			parameterSets(operation).flatMap((parameters) =>
				operation.money!.details.map((detail) => ({
					name: `${resource.value}.${operation.value}${parameters.requisiteType ? ` (${String(parameters.requisiteType)})` : ''} ${detail.name}`,
					operation,
					parameters: { resource: resource.value, operation: operation.value, ...parameters },
					detail,
				})),
			),
		),
);

const FORMS: Form[] = ['shown', 'masked', 'absent', 'different'];

describe('the evidence table', () => {
	it('has a row for every kind of detail the money contracts declare', () => {
		const kinds = new Set(CASES.map((c) => c.detail.kind ?? 'value'));
		for (const kind of kinds) expect(RULES[kind]).toBeDefined();
		expect(Object.keys(RULES).sort()).toEqual(['requisite', 'text', 'value']);
	});

	it('covers every money operation of the node', () => {
		const operations = new Set(
			CASES.map((c) => `${c.parameters.resource}.${c.parameters.operation}`),
		);
		expect([...operations].sort()).toEqual(
			['card.recharge', 'card.request', 'order.pay', 'payout.cancel', 'payout.create'].sort(),
		);
	});
});

describe.each(CASES)('$name', ({ operation, parameters, detail }) => {
	const kind = detail.kind ?? 'value';
	const context = createContext({ parameters });
	const asked = detail.asked(context, 0, ANSWER_CONTEXT);
	const field = fieldOf(detail);

	it('is asked by the generated parameters', () => {
		expect(asked).not.toBeUndefined();
	});

	it.each(FORMS)('shown %s: as the table says', (form) => {
		const record: IDataObject = { ...ANSWER_CONTEXT };
		for (const other of operation.money!.details) {
			if (other === detail) continue;
			const value = other.asked(context, 0, ANSWER_CONTEXT);
			if (value !== undefined) record[fieldOf(other)] = value as IDataObject[string];
		}
		record[field] = shownAs(kind, asked, form) as IDataObject[string];
		const reading = readDetails(context, operation.money!, 0, record);
		const verdict: Expected = reading.differences.some((d) => d.field === detail.name)
			? 'differs'
			: reading.notShown.includes(detail.name)
				? 'not_shown'
				: 'agrees';
		expect(verdict).toBe(RULES[kind][form]);
		// Every other detail is shown as asked: only this one decides.
		expect(reading.differences.filter((d) => d.field !== detail.name)).toEqual([]);
		expect(reading.notShown.filter((name) => name !== detail.name)).toEqual([]);
	});

	if (kind === 'requisite') {
		it('masked with a digit the mask shows being another: differs', () => {
			const digits = phoneOrCard(String(asked));
			const other = `${digits.slice(0, -1)}${digits.endsWith('1') ? '2' : '1'}`;
			const reading = readDetails(context, operation.money!, 0, { [field]: maskOf(other) });
			expect(reading.differences.map((d) => d.field)).toContain(detail.name);
		});
	}
});
