/**
 * The provider adapters, built from ProvidersConfig. Base URLs left unset point at the built-in
 * sandbox on this server's own origin (known once it listens), so adapters are made per call.
 */
import type { ProvidersConfig } from './config';
import type { FetchLike } from './http';
import { createGbPrimeClient, createGbPrimeProvider } from './gbprime';
import { createOmiseClient, createOmiseProvider } from './omise';
import { createPaypalClient, createPaypalProvider } from './paypal';
import { createPaySolutionsClient, createPaySolutionsProvider } from './paysolutions';
import { createScbClient, createScbProvider } from './scb';
import type { PaymentProvider, ProviderName } from './provider';
import { PAYPAL_SANDBOX_WEBHOOK_ID } from './sandbox/paypal';
import { createTwoC2pClient, paymentActionUrlFor, twoC2pProviderOn } from './twoc2p';

export interface Providers {
  config: ProvidersConfig;
  /** True when this provider talks to our loopback sandbox. */
  usesSandbox(p: 'omise' | 'scb' | 'twoc2p' | 'gbprime' | 'paysolutions' | 'paypal'): boolean;
  omise(): ReturnType<typeof createOmiseClient>;
  scb(): ReturnType<typeof createScbClient>;
  twoc2p(): ReturnType<typeof createTwoC2pClient>;
  gbprime(): ReturnType<typeof createGbPrimeClient>;
  paysolutions(): ReturnType<typeof createPaySolutionsClient>;
  paypal(): ReturnType<typeof createPaypalClient>;
  /**
   * The provider behind the one interface (server/providers/provider.ts): the scheduled re-read of
   * pending attempts and the back office's refunds speak to providers only through this.
   */
  get(name: ProviderName): PaymentProvider;
  /** The providers `get` can build: every one. */
  wired(): ProviderName[];
}

/** Every provider's adapter implements PaymentProvider. */
const WIRED: ProviderName[] = ['omise', 'paypal', 'scb', '2c2p', 'gbprime', 'paysolutions'];

export function createProviders(cfg: ProvidersConfig, deps: { selfOrigin(): string; browserOrigin(): string; now(): Date; fetch?: FetchLike }): Providers {
  const sb = (p: string) => `${deps.selfOrigin()}/sandbox/${p}`;
  const sbBrowser = (p: string) => `${deps.browserOrigin()}/sandbox/${p}`;
  const cache = new Map<string, unknown>();
  function memo<T>(key: string, make: () => T): T {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key) as T;
  }
  const f = deps.fetch;
  return {
    config: cfg,
    usesSandbox(p) {
      const c = cfg[p] as { apiBase: string | null };
      return c.apiBase === null;
    },
    omise() {
      const base = cfg.omise.apiBase ?? sb('omise');
      const vault = cfg.omise.vaultBase ?? `${sb('omise')}/vault`;
      return memo(`omise|${base}|${vault}`, () => createOmiseClient({ baseUrl: base, vaultUrl: vault, keys: cfg.omise, fetch: f }));
    },
    scb() {
      const base = cfg.scb.apiBase ?? sb('scb');
      return memo(`scb|${base}`, () => createScbClient({ baseUrl: base, keys: cfg.scb, fetch: f, now: deps.now }));
    },
    twoc2p() {
      const base = cfg.twoc2p.apiBase ?? sb('2c2p');
      const secure = cfg.twoc2p.securePayUrl ?? `${sbBrowser('2c2p')}/SecurePayment/PaymentAuth.aspx`;
      // The Payment Action API (card-form inquiry) sits next to the secure payment page; the server reaches its own sandbox on the loopback origin.
      const action = paymentActionUrlFor(cfg.twoc2p.securePayUrl ?? `${sb('2c2p')}/SecurePayment/PaymentAuth.aspx`);
      return memo(`2c2p|${base}|${secure}|${action}`, () => createTwoC2pClient({ baseUrl: base, securePayUrl: secure, paymentActionUrl: action, keys: cfg.twoc2p, fetch: f }));
    },
    gbprime() {
      // The browser reaches GB Prime Pay's token API (card page script) and 3-D Secure page at the same base.
      const base = cfg.gbprime.apiBase ?? sbBrowser('gbprime');
      const api = cfg.gbprime.apiBase ?? sb('gbprime');
      const client = memo(`gbp|${api}`, () => createGbPrimeClient({ baseUrl: api, keys: cfg.gbprime, fetch: f }));
      const pages = memo(`gbp-pages|${base}`, () => createGbPrimeClient({ baseUrl: base, keys: cfg.gbprime, fetch: f }));
      return { ...client, threeDSecureForm: pages.threeDSecureForm, tokenEndpoint: pages.tokenEndpoint };
    },
    paysolutions() {
      const api = cfg.paysolutions.apiBase ?? sb('paysolutions');
      const form = cfg.paysolutions.formUrl ?? `${sbBrowser('paysolutions')}/epaylink/payment.aspx`;
      return memo(`ps|${api}|${form}`, () => createPaySolutionsClient({ baseUrl: api, formUrl: form, keys: cfg.paysolutions, fetch: f }));
    },
    paypal() {
      const base = cfg.paypal.apiBase ?? sb('paypal');
      // PAYPAL_WEBHOOK_ID: the id PayPal gave our webhook (verify-webhook-signature); the sandbox's own by default.
      const webhookId = process.env.PAYPAL_WEBHOOK_ID || (cfg.paypal.apiBase === null ? PAYPAL_SANDBOX_WEBHOOK_ID : '');
      return memo(`pp|${base}|${webhookId}`, () => createPaypalClient({ baseUrl: base, keys: { ...cfg.paypal, webhookId }, fetch: f, now: deps.now }));
    },
    wired: () => [...WIRED],
    get(name) {
      switch (name) {
        case 'omise':
          return createOmiseProvider(this.omise(), cfg.omise.webhookSecret, () => deps.now().getTime());
        case 'paypal':
          return createPaypalProvider(this.paypal());
        case 'scb':
          return createScbProvider(this.scb(), deps.now);
        case '2c2p':
          return twoC2pProviderOn(this.twoc2p());
        case 'gbprime':
          return createGbPrimeProvider(this.gbprime());
        case 'paysolutions':
          return createPaySolutionsProvider(this.paysolutions());
      }
    },
  };
}
