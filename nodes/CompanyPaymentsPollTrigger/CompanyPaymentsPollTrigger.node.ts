import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { gateError, gateItems, openRun } from '../shared/gate';
import { PROPERTIES } from './description';
import { poll } from './poll';

export class CompanyPaymentsPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Company Payments Poll Trigger',
		name: 'companyPaymentsPollTrigger',
		icon: {
			light: 'file:../../icons/companyPayments.svg',
			dark: 'file:../../icons/companyPayments.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Watch: " + ($parameter["watch"] || []).join(", ")}}',
		description:
			'Starts the workflow on changes of payouts, orders, deposits, cards, disputes and the balance, found by polling',
		defaults: {
			name: 'Company Payments Poll Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'companyPaymentsApi',
				required: true,
			},
		],
		properties: PROPERTIES,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Its doors: the items it emits, its errors and its log lines, through the gate. What its
		// calls learn (through contexts made from this one) is kept for this run's doors.
		openRun(this);
		try {
			const items = await poll.call(this);
			return items === null ? null : gateItems(this, items);
		} catch (error) {
			throw gateError(this, error);
		}
	}
}
