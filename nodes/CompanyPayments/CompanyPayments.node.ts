import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { listSearch } from './listSearch';
import {
	READ_ONLY_DEFAULTS_VERSION,
	RESOURCE_LOCATOR_VERSION,
	resourceProperties,
	resources,
	subtitle,
} from './resources';
import { endRun } from '../shared/money/write';
import { route } from './router';
import { toolProperties } from './tool';

export class CompanyPayments implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Company Payments',
		name: 'companyPayments',
		icon: {
			light: 'file:../../icons/companyPayments.svg',
			dark: 'file:../../icons/companyPayments.dark.svg',
		},
		group: ['transform'],
		version: [1, READ_ONLY_DEFAULTS_VERSION, RESOURCE_LOCATOR_VERSION],
		subtitle,
		description:
			'Pay QR codes, open disputes, and manage wallets, cards, payouts and team members of your company payments account',
		defaults: {
			name: 'Company Payments',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'companyPaymentsApi',
				required: true,
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Card',
						value: 'card',
						description: 'Request, recharge and read company cards',
					},
					{
						name: 'Company',
						value: 'company',
						description: 'The company profile, API key, webhook URL and webhook secret',
					},
					{
						name: 'Company Wallet',
						value: 'companyWallet',
						description: 'The company deposit address, balance, deposits and balance history',
					},
					{
						name: 'Dispute',
						value: 'dispute',
						description: 'Disputes on completed orders',
					},
					{
						name: 'Invite',
						value: 'invite',
						description: 'Invites that bring new members into the company',
					},
					{
						name: 'Member',
						value: 'member',
						description: 'Team members of the company with their roles and permissions',
					},
					{
						name: 'Order',
						value: 'order',
						description: 'Quotes and orders paid from QR codes',
					},
					{
						name: 'Payment',
						value: 'payment',
						description: 'Any payment of the node: resolve an outcome that came out unknown',
					},
					{
						name: 'Payout',
						value: 'payout',
						description: 'RUB payouts to a card or phone number',
					},
					{
						name: 'User Wallet',
						value: 'userWallet',
						description: 'Per-user deposit wallets identified by your external ID',
					},
				],
				default: 'order',
			},
			...resourceProperties,
			...toolProperties(resources),
		],
	};

	methods = {
		listSearch,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// The memory of sent writes holds a failed run's writes for its Retry On Fail, and frees
		// those of a run that ended normally (n8n never runs it again): shared/money/write.ts.
		let normally = false;
		try {
			const output = await route.call(this, resources);
			normally = true;
			return output;
		} finally {
			endRun(this, normally);
		}
	}
}
