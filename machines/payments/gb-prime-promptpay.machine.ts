/**
 * GB Prime Pay PromptPay (method 12), a member of the QR family (qr.family.ts): the server creates
 * the QR (createGbPrimePromptPay: a base64 PNG, its reference number and expires_at).
 */
import type { GbPrimePromptPayRequest, GbPrimePromptPayResponse } from '../shared/api';
import { qrMachine } from './qr.family';

export const gbPrimePromptPayMachine = qrMachine({
  id: 'gbPrimePromptPay',
  create: {
    src: 'createGbPrimePromptPay',
    input: (order): GbPrimePromptPayRequest => ({ orderId: order.orderId, email: order.email, name: order.name, total_amount: order.amount }),
    shown: (answer: GbPrimePromptPayResponse) => ({
      qrImage: answer.data.qrImage as string | null,
      referenceNo: answer.data.referenceNo as string | null,
      expiresAt: answer.data.expires_at,
    }),
  },
  noQr: { qrImage: null as string | null, referenceNo: null as string | null },
  finish: false,
});
