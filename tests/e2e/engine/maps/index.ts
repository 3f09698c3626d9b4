/** Every payment machine's page map, in the order of the method ids. */
import type { PageMap } from '../runner';
import { omiseCardMap } from './omise-card';
import { gbPrimePromptPayMap, omisePromptPayMap } from './promptpay';
import { gbPrimeCardMap, paySolutionsMap, twoC2pLinkMap } from './redirects';

export const PAGE_MAPS: PageMap[] = [omiseCardMap, omisePromptPayMap, twoC2pLinkMap, gbPrimeCardMap, gbPrimePromptPayMap, paySolutionsMap];
