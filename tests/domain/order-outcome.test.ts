import { describe, expect, it } from 'vitest';
import { paymentNoticeMail } from '../../domain/mail';
import { failureReason, isPayable, orderNumber, orderOutcome } from '../../domain/order-outcome';

describe('orderOutcome', () => {
  const unpaid = { status: 'notYetReceived' as const, cancelledByBuyer: false };
  it('reads each order status', () => {
    expect(orderOutcome({ ...unpaid, status: 'approved', lastAttempt: null }).state).toBe('paid');
    expect(orderOutcome({ ...unpaid, status: 'pendingApproved', lastAttempt: null }).state).toBe('awaitingApproval');
    expect(orderOutcome({ ...unpaid, status: 'cancelled', lastAttempt: null }).state).toBe('expired');
    expect(orderOutcome({ status: 'cancelled', cancelledByBuyer: true, lastAttempt: null }).state).toBe('cancelled');
    expect(orderOutcome({ ...unpaid, status: 'rejected', lastAttempt: null }).state).toBe('rejected');
    expect(orderOutcome({ ...unpaid, lastAttempt: null })).toEqual({ state: 'awaitingPayment', reason: null, method_id: null });
  });
  it('an unpaid order whose latest attempt failed is failed with the reason; a pending attempt waits', () => {
    expect(orderOutcome({ ...unpaid, lastAttempt: { provider: 'omise', methodId: 8, status: 'failed', code: 'failed_3ds' } })).toEqual({ state: 'failed', reason: 'authenticationFailed', method_id: 8 });
    expect(orderOutcome({ ...unpaid, lastAttempt: { provider: 'scb', methodId: 4, status: 'expired', code: 'expired' } }).reason).toBe('expired');
    expect(orderOutcome({ ...unpaid, lastAttempt: { provider: 'omise', methodId: 9, status: 'pending', code: null } }).state).toBe('awaitingPayment');
    expect(isPayable('failed') && isPayable('awaitingPayment') && !isPayable('paid') && !isPayable('awaitingApproval')).toBe(true);
  });
  it('maps provider codes, unknown ones to declined', () => {
    expect(failureReason('omise', 'failed', 'insufficient_fund')).toBe('insufficientFunds');
    expect(failureReason('2c2p', 'failed', '4043')).toBe('cardLostOrStolen');
    expect(failureReason('2c2p', 'failed', 'AR')).toBe('authenticationFailed');
    expect(failureReason('gbprime', 'failed', '51')).toBe('insufficientFunds');
    expect(failureReason('paysolutions', 'cancelled', 'CD')).toBe('cancelled');
    expect(failureReason('paypal', 'failed', 'INSTRUMENT_DECLINED')).toBe('declined');
    expect(failureReason('omise', 'failed', 'toString')).toBe('declined');
    expect(failureReason('nope', 'failed', null)).toBe('declined');
  });
});

describe('orderNumber', () => {
  it('is "#" and the order id, the same in both e-mail languages', () => {
    expect(orderNumber(8)).toBe('#8');
    const p = { orderId: 8, fullname: 'A', amount: '฿1.00', bank: null, account: null, when: '-', tel: null };
    expect(paymentNoticeMail('th', p).subject).toContain(' #8');
    expect(paymentNoticeMail('en', p).subject).toContain(' #8');
  });
});
