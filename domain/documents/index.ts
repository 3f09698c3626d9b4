/** Receipts, full tax invoices and credit notes: kinds, numbers and every amount on them. */
export * from './kinds';
export * from './amounts';
export * from './parties';
export * from './certificate';
