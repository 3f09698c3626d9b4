/**
 * domain/: every business rule of the checkout spec, once, as pure TypeScript.
 * Used by the XState machines, the React views and the reference server alike.
 * README.md maps each spec rule to its function and test.
 */
export * from './types';
export * from './values';
export * from './money';
export * from './messages';
export * from './mail';
export * from './plans';
export * from './discounts';
export * from './tax';
export * from './payment-methods';
export * from './buyability';
export * from './order-checks';
export * from './forms';
export * from './promptpay';
export * from './challenge';
