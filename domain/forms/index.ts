export * from './common';
export * from './registration';
export * from './tax-invoice';
export * from './bank-transfer';
export * from './card';
export * from './upload';
export * from './shipping-address';
