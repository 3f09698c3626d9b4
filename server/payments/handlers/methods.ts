/** Payment methods, bank accounts and bank codes (tag payments). Only public identifiers leave the server. */
import type { components } from '../../../generated/api';
import type { Queryable } from '../../db/index';
import { ApiError } from '../../errors';
import type { Handlers } from '../../openapi/router';
import { isMethodSelectable, isPaymentMethodId } from '../../../domain/payment-methods';
import { ownOrder, type PaymentsDeps } from '../common';

interface MethodRow {
  id: number;
  name: string;
  name_web: string | null;
  payment_type: string;
  application_id_1: string | null;
  application_id_2: string | null;
}

interface BankRow {
  id: number;
  account_id: string;
  account_name: string;
  bank: string;
  bank_name: string;
  prompt_pay_image: string | null;
}

/** The public identifier of each method's provider account, from the live provider settings. */
function publicIds(deps: PaymentsDeps, m: MethodRow): { application_id_1: string | null; application_id_2: string | null } {
  const c = deps.config;
  switch (m.id) {
    case 2:
      return { application_id_1: c.paypal.clientId, application_id_2: null };
    case 3:
    case 10:
      return { application_id_1: c.twoc2p.merchantId, application_id_2: m.application_id_2 };
    case 4:
      return { application_id_1: c.scb.billerId, application_id_2: null };
    case 8:
    case 9:
      return { application_id_1: c.omise.publicKey, application_id_2: null };
    case 11:
    case 12:
      return { application_id_1: c.gbprime.publicKey, application_id_2: null };
    case 13:
      return { application_id_1: c.paysolutions.merchantId, application_id_2: null };
    default:
      return { application_id_1: m.application_id_1, application_id_2: m.application_id_2 };
  }
}

async function banks(q: Queryable): Promise<BankRow[]> {
  const r = await q.query<BankRow>('SELECT id, account_id, account_name, bank, bank_name, prompt_pay_image FROM bank_accounts WHERE payment_method_id = 1 ORDER BY id');
  return r.rows;
}

type PaymentMethodApi = components['schemas']['PaymentMethod'];
type BankAccountApi = components['schemas']['BankAccount'];

export async function listMethods(q: Queryable, deps: PaymentsDeps): Promise<PaymentMethodApi[]> {
  const r = await q.query<MethodRow>('SELECT id, name, name_web, payment_type, application_id_1, application_id_2 FROM payment_methods WHERE is_active ORDER BY sort, id');
  const bankList = (await banks(q)) as BankAccountApi[];
  return r.rows
    .filter((m) => isPaymentMethodId(m.id))
    .map((m) => ({
      id: m.id as PaymentMethodApi['id'],
      name: m.name,
      name_web: m.name_web,
      payment_type: m.payment_type,
      ...publicIds(deps, m),
      ...(m.id === 1 ? { bankList } : {}),
    }));
}

export function methodHandlers(deps: PaymentsDeps): Handlers {
  return {
    getCartPaymentMethods: async (_req, _reply, ctx) => ({ success: true as const, data: await listMethods(ctx.db, deps) }),
    getPaymentMethods: async (_req, _reply, ctx) => ({ success: true as const, data: await listMethods(ctx.db, deps) }),
    getBankTransferMethod: async (_req, _reply, ctx) => {
      const m = (await listMethods(ctx.db, deps)).find((x) => x.id === 1);
      if (!m) throw new ApiError(404, 'NOT_FOUND', 'Bank transfer is not enabled');
      return { success: true as const, data: m };
    },
    getBankAccounts: async (_req, _reply, ctx) => ({ success: true as const, data: (await banks(ctx.db)) as BankAccountApi[] }),
    getPaymentMethodsForOrder: async (req, _reply, ctx) => {
      const o = await ownOrder(ctx.db, ctx, req, Number(req.params.orderId));
      const all = await listMethods(ctx.db, deps);
      return { success: true as const, data: all.filter((m) => isMethodSelectable(m.id, o.total, o.currency_code)) };
    },
    get2c2pCardMethod: async (_req, _reply, ctx) => {
      const r = await ctx.db.query<MethodRow>('SELECT id, name, name_web, payment_type, application_id_1, application_id_2 FROM payment_methods WHERE id = 3');
      const m = r.rows[0];
      if (!m) throw new ApiError(404, 'NOT_FOUND', '2C2P card is not configured');
      const ids = publicIds(deps, m);
      return { success: true as const, data: { application_id_1: ids.application_id_1 ?? '', application_id_2: ids.application_id_2, name_web: m.name_web } };
    },
    getBankCodeOptions: async (_req, _reply, ctx) => {
      const r = await ctx.db.query<{ banktransfer_value: string; banktransfer_nameth: string }>('SELECT banktransfer_value, banktransfer_nameth FROM bank_codes ORDER BY sort, banktransfer_value');
      return { success: true as const, data: r.rows };
    },
  };
}
