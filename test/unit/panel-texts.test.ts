/**
 * n8n's UX guidelines for the node panel, over every property of every node and the credential
 * (options, collections and fixed collections included): a description of at most 250
 * characters, a notice of at most 300 (counted raw, link markup included), placeholders that give an example ("e.g. …"). What does
 * not fit goes to the docs, linked by an absolute URL that works on npm and in the editor.
 */
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { CompanyPaymentsApi } from '../../credentials/CompanyPaymentsApi.credentials';
import { CompanyPayments } from '../../nodes/CompanyPayments/CompanyPayments.node';
import { CompanyPaymentsPollTrigger } from '../../nodes/CompanyPaymentsPollTrigger/CompanyPaymentsPollTrigger.node';
import { CompanyPaymentsTrigger } from '../../nodes/CompanyPaymentsTrigger/CompanyPaymentsTrigger.node';

export const DESCRIPTION_LIMIT = 250;
export const NOTICE_LIMIT = 300;

/**
 * A text is counted as the string n8n serves to the editor (and its verification reads): raw,
 * a link's `<a href="…">` markup included, not only what the panel shows of it.
 */
function overLimit(text: PanelText): boolean {
	const limit = text.kind === 'notice' ? NOTICE_LIMIT : DESCRIPTION_LIMIT;
	return (text.kind === 'notice' || text.kind === 'description') && text.text.length > limit;
}

interface PanelText {
	where: string;
	kind: 'description' | 'notice' | 'hint' | 'placeholder';
	text: string;
}

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every text the panel shows for these properties, with the path that names it. */
export function panelTexts(entries: readonly Entry[], where: string): PanelText[] {
	const found: PanelText[] = [];
	for (const entry of entries) {
		const name = 'name' in entry ? String(entry.name) : '?';
		const path = `${where} › ${name}`;
		const property = entry as Partial<INodeProperties>;
		if (property.type === 'notice') {
			found.push({ where: path, kind: 'notice', text: String(property.displayName ?? '') });
		}
		if (typeof property.description === 'string') {
			found.push({ where: path, kind: 'description', text: property.description });
		}
		if (typeof property.hint === 'string') {
			found.push({ where: path, kind: 'hint', text: property.hint });
		}
		// A collection's placeholder is its "Add option" button, not an example value.
		const isList =
			property.type === 'collection' ||
			property.type === 'fixedCollection' ||
			property.type === 'multiOptions' ||
			property.type === 'options';
		if (typeof property.placeholder === 'string' && property.placeholder !== '' && !isList) {
			found.push({ where: path, kind: 'placeholder', text: property.placeholder });
		}
		const nested = (entry as { options?: unknown; values?: unknown }).options;
		if (Array.isArray(nested)) found.push(...panelTexts(nested as Entry[], path));
		const values = (entry as { values?: unknown }).values;
		if (Array.isArray(values)) found.push(...panelTexts(values as Entry[], path));
	}
	return found;
}

const nodes: INodeTypeDescription[] = [
	new CompanyPayments().description,
	new CompanyPaymentsTrigger().description,
	new CompanyPaymentsPollTrigger().description,
];

const texts: PanelText[] = [
	...nodes.flatMap((description) => panelTexts(description.properties, description.displayName)),
	...panelTexts(new CompanyPaymentsApi().properties, 'Company Payments API credential'),
];

describe('panel texts fit the panel (n8n UX guidelines)', () => {
	it('finds the texts of every node and the credential', () => {
		for (const description of nodes) {
			expect(texts.some((text) => text.where.startsWith(description.displayName))).toBe(true);
		}
		expect(texts.filter((text) => text.kind === 'notice').length).toBeGreaterThan(3);
	});

	it.each([
		['description', DESCRIPTION_LIMIT],
		['notice', NOTICE_LIMIT],
	])('no %s is over %i characters', (kind) => {
		const over = texts
			.filter((text) => text.kind === kind && overLimit(text))
			.map((text) => `${text.where} (${text.text.length})`);
		expect(over).toEqual([]);
	});

	it('every placeholder gives an example: it starts with "e.g."', () => {
		const other = texts
			.filter((text) => text.kind === 'placeholder' && !text.text.startsWith('e.g.'))
			.map((text) => `${text.where}: ${text.text}`);
		expect(other).toEqual([]);
	});

	it('links in panel texts are absolute (a relative docs path opens nothing in the editor)', () => {
		const relative = texts
			.filter(
				(text) =>
					/href="(?!https:\/\/)/.test(text.text) ||
					/\bdocs\/[\w-]+\.md\b/.test(text.text.replace(/https:\/\/\S+/g, '')),
			)
			.map((text) => `${text.where}: ${text.text}`);
		expect(relative).toEqual([]);
	});
});
