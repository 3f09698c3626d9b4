/**
 * A shipping address (the buyer creates and edits it at checkout; openapi ShippingAddressCreate):
 * recipient name, phone (9-10 digits), address, sub-district, district, province, 5-digit postcode.
 * Each field reports its first failure; the server checks the same shape again.
 */
import { z } from 'zod/mini';
import { MSG } from '../messages';
import { filled, textField, toFormResult, type FormResult } from './common';

export interface ShippingAddressValues {
  name?: string | null;
  tel?: string | null;
  address?: string | null;
  sub_district?: string | null;
  district?: string | null;
  province?: string | null;
  postcode?: string | null;
}

export interface ShippingAddressInput {
  name: string;
  tel: string;
  address: string;
  sub_district: string;
  district: string;
  province: string;
  postcode: string;
}

export const SHIPPING_ADDRESS_FIELDS = ['name', 'tel', 'address', 'sub_district', 'district', 'province', 'postcode'] as const;

const max = (n: number) => (v: string) => v.length <= n;

const schema = z.object({
  name: textField([[filled, MSG.ADDRESS_NAME_REQUIRED], [max(255), MSG.ADDRESS_NAME_REQUIRED]]),
  tel: textField([[(v) => /^\d{9,10}$/.test(v), MSG.ADDRESS_TEL_INVALID]]),
  address: textField([[filled, MSG.ADDRESS_REQUIRED], [max(1000), MSG.ADDRESS_REQUIRED]]),
  sub_district: textField([[filled, MSG.ADDRESS_SUB_DISTRICT_REQUIRED], [max(255), MSG.ADDRESS_SUB_DISTRICT_REQUIRED]]),
  district: textField([[filled, MSG.ADDRESS_DISTRICT_REQUIRED], [max(255), MSG.ADDRESS_DISTRICT_REQUIRED]]),
  province: textField([[filled, MSG.ADDRESS_PROVINCE_REQUIRED], [max(255), MSG.ADDRESS_PROVINCE_REQUIRED]]),
  postcode: textField([[(v) => /^\d{5}$/.test(v), MSG.ADDRESS_POSTCODE_INVALID]]),
});

export function validateShippingAddress(values: ShippingAddressValues): FormResult<ShippingAddressInput> {
  return toFormResult(schema.safeParse(values));
}
