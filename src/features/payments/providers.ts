/**
 * Provider browser scripts and pages (lazy, payments chunk only). The defaults are the loopback
 * sandboxes of the reference server; production builds set the real ones:
 *   VITE_OMISE_JS_URL=https://cdn.omise.co/omise.js
 *   VITE_MY2C2P_JS_URL=https://t.2c2p.com/SecurePayment/api/my2c2p.1.7.3.min.js
 *   VITE_PAYPAL_CHECKOUT_URL=https://www.paypal.com/checkoutnow
 * Card data never reaches our API: Omise.js sends it to Omise's vault and answers a token;
 * my2c2p.js encrypts it with 2C2P's public key in the page.
 */
import { PAYPAL_CHECKOUT_URL } from '../../api/paypal-window';

const env = (import.meta as ImportMeta & { env?: Record<string, string | undefined> }).env ?? {};

export const PROVIDER_URLS = {
  omiseJs: env.VITE_OMISE_JS_URL || '/sandbox/omise/omise.js',
  my2c2pJs: env.VITE_MY2C2P_JS_URL || '/sandbox/2c2p/my2c2p.js',
  paypalCheckout: PAYPAL_CHECKOUT_URL,
};

const loading = new Map<string, Promise<void>>();

/** Loads a provider script once. */
export function loadScript(src: string): Promise<void> {
  const known = loading.get(src);
  if (known) return known;
  const p = new Promise<void>((resolve, reject) => {
    const el = document.createElement('script');
    el.src = src;
    el.async = true;
    el.onload = () => resolve();
    el.onerror = () => {
      loading.delete(src);
      reject(new Error(`cannot load ${src}`));
    };
    document.head.appendChild(el);
  });
  loading.set(src, p);
  return p;
}

export interface CardForToken {
  name: string;
  number: string;
  expiration_month: number;
  expiration_year: number;
  security_code: string;
}

interface OmiseJs {
  setPublicKey(key: string): void;
  createToken(type: 'card', card: CardForToken, cb: (status: number, response: { id?: string; object?: string; message?: string; code?: string }) => void): void;
}

export type Tokenize = (publicKey: string, card: CardForToken) => Promise<string>;

/** Omise.js: the card goes to Omise's vault, the answer is a token (tokn_…). */
export const omiseTokenize: Tokenize = async (publicKey, card) => {
  await loadScript(PROVIDER_URLS.omiseJs);
  const Omise = (window as unknown as { Omise?: OmiseJs }).Omise;
  if (!Omise) throw new Error('Omise.js is not available');
  Omise.setPublicKey(publicKey);
  return new Promise<string>((resolve, reject) => {
    Omise.createToken('card', card, (status, response) => {
      if (status === 200 && response.id) resolve(response.id);
      else reject(new Error(response.message ?? response.code ?? `Omise ${status}`));
    });
  });
};

export interface EncryptedCardResult {
  encryptedCardInfo: string;
  maskedCardInfo: string;
  expMonthCardInfo: string;
  expYearCardInfo: string;
}

interface My2c2p {
  getEncrypted(form: HTMLFormElement, cb: (result: EncryptedCardResult | null, error: { errCode: number | string; errDesc: string } | null) => void): void;
}

export type EncryptCard = (form: HTMLFormElement) => Promise<EncryptedCardResult>;

export class GatewayError extends Error {
  readonly code: string;
  readonly description: string;
  constructor(code: string, description: string) {
    super(`${description} (${code})`);
    this.code = code;
    this.description = description;
  }
}

/** my2c2p.js: encrypts the fields marked data-encrypt in the page with 2C2P's public key. */
export const my2c2pEncrypt: EncryptCard = async (form) => {
  await loadScript(PROVIDER_URLS.my2c2pJs);
  const lib = (window as unknown as { My2c2p?: My2c2p }).My2c2p;
  if (!lib) throw new GatewayError('script', 'my2c2p.js is not available');
  return new Promise((resolve, reject) => {
    lib.getEncrypted(form, (result, error) => {
      if (result) resolve(result);
      else reject(new GatewayError(String(error?.errCode ?? 'unknown'), error?.errDesc ?? 'card encryption failed'));
    });
  });
};
