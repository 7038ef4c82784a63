import { getAssignedCards, getCards } from './cards';
import { getDisputableOrders, getOrders } from './orders';
import { getCancelablePayouts, getPayouts } from './payouts';
import { getInvites, getMembers } from './team';
import { getUserWallets } from './userWallets';

/** The lists of the resource locators (node version 1.2), by searchListMethod name. */
export const listSearch = {
	getAssignedCards,
	getCancelablePayouts,
	getCards,
	getDisputableOrders,
	getInvites,
	getMembers,
	getOrders,
	getPayouts,
	getUserWallets,
};
