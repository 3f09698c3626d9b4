/** The origin-bank options of a bank transfer's notice (getBankCodeOptions), read by the loaders of the pages that pay. */
import type { components } from '../../generated/api';
import { bankCodeRequests } from './requests/bank-codes';

export type BankCodeOption = components['schemas']['BankCodeOption'];

/** None when they cannot be read: the notice still sends, with no origin bank to pick. */
export async function loadBankCodes(signal?: AbortSignal): Promise<BankCodeOption[]> {
  try {
    return (await bankCodeRequests.getBankCodeOptions.call(undefined, signal)).data;
  } catch {
    return [];
  }
}
