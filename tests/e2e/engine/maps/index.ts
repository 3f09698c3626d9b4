/** Every payment machine's page map, in the order of the method ids. */
import type { PageMap } from '../runner';
import { bankTransferMap } from './bank-transfer';
import { omiseCardMap } from './omise-card';
import { orderPaymentMap, orderPaymentNoThankYouMap } from './order-payment';
import { paypalMap } from './paypal';
import { gbPrimePromptPayMap, omisePromptPayMap } from './promptpay';
import { scbQrMap } from './scb-qr';
import { twoC2pCardMap, twoC2pCardReturnMap } from './two-c2p-card';
import { gbPrimeCardMap, paySolutionsMap, twoC2pLinkMap } from './redirects';

export const PAGE_MAPS: PageMap[] = [bankTransferMap, paypalMap, twoC2pCardMap, scbQrMap, omiseCardMap, omisePromptPayMap, twoC2pLinkMap, gbPrimeCardMap, gbPrimePromptPayMap, paySolutionsMap, twoC2pCardReturnMap];

/** Flows over every method: pay again on the same order (the order list). */
export const FLOW_MAPS: PageMap[] = [orderPaymentMap, orderPaymentNoThankYouMap];
