/**
 * PaySolutions adapter: the hosted payment form (epaylink, ?lang=TH) with OUR total, and the
 * order-detail inquiry the unsigned postback is re-checked with before anything is trusted.
 */
import { fromMajor, toDecimalString } from '../../domain/money';
import { type AdapterOptions, ProviderError, isRecord, send } from './http';

export interface PaySolutionsKeys {
  merchantId: string;
  apiKey: string;
  secretKey: string;
}

/** Status of an order at PaySolutions: CP completed (paid); others are not paid. */
export const PAYSOLUTIONS_PAID = 'CP';

export interface PaySolutionsTxn {
  refno: string;
  total: number;
  status: string;
  statusName: string;
}

export function createPaySolutionsClient(opts: AdapterOptions<PaySolutionsKeys> & { formUrl: string }) {
  const { merchantId, apiKey, secretKey } = opts.keys;
  return {
    merchantId,
    hostedForm(input: { refno: string; total: number; email: string; productDetail: string; returnUrl: string; postbackUrl: string }) {
      const u = new URL(opts.formUrl);
      u.searchParams.set('lang', 'TH');
      return {
        action: u.toString(),
        fields: {
          customeremail: input.email,
          productdetail: input.productDetail.slice(0, 255),
          refno: input.refno,
          merchantid: merchantId,
          cc: '00' as const,
          total: toDecimalString(input.total),
          lang: 'TH' as const,
          returnurl: input.returnUrl,
          postbackurl: input.postbackUrl,
        },
      };
    },

    /** Order detail by refno; null when PaySolutions does not know it. Total in satang. */
    async inquiry(refno: string): Promise<PaySolutionsTxn | null> {
      const res = await send('paysolutions', opts, {
        method: 'POST',
        path: '/order/orderdetailpost',
        headers: { apikey: apiKey, secretkey: secretKey },
        json: { merchantID: merchantId, orderNo: 'X', refNo: refno, productDetail: 'X' },
      });
      if (res.status >= 400 || !Array.isArray(res.body)) {
        const b = isRecord(res.body) ? res.body : {};
        throw new ProviderError('paysolutions', res.status, String(b.code ?? 'http_error'), String(b.message ?? `HTTP ${res.status}`), res.body);
      }
      const rows = (res.body as unknown[]).filter(isRecord);
      // Several attempts may share a refno: a paid one wins.
      const row = rows.find((r) => r.Status === PAYSOLUTIONS_PAID) ?? rows[rows.length - 1];
      if (!row) return null;
      return { refno: String(row.ReferenceNo), total: fromMajor(Number(row.Total)), status: String(row.Status), statusName: String(row.StatusName ?? '') };
    },
  };
}

export type PaySolutionsClient = ReturnType<typeof createPaySolutionsClient>;
