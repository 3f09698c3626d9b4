/**
 * Provider settings from the environment. A base URL left unset means "our own loopback sandbox"
 * (`<server origin>/sandbox/<provider>`): the same adapter code talks to the real provider when the
 * URL and keys are set. Sandbox keys are fixed test values, good only against the sandbox.
 * Nothing here is ever sent to a browser except the public keys.
 */
export interface ProvidersConfig {
  /** Mount the emulators under /sandbox/* (PAYMENTS_SANDBOX=off disables). */
  sandboxEnabled: boolean;
  /** Origin browsers use to reach this server (redirect and return URLs); null = from the request. */
  publicOrigin: string | null;
  /** Origin the server uses to reach its own sandbox; null = the listening loopback address. */
  selfOrigin: string | null;
  omise: {
    apiBase: string | null;
    vaultBase: string | null;
    publicKey: string;
    secretKey: string;
    webhookSecret: string;
    /** Sandbox only: which cards go through the 3-D Secure page. */
    threeDS: 'enrolled' | 'always' | 'never';
    /** Sandbox only: minutes a PromptPay charge stays payable. */
    promptpayTtlMinutes: number;
  };
  scb: {
    apiBase: string | null;
    applicationKey: string;
    applicationSecret: string;
    billerId: string;
    ref3Prefix: string;
    /** We enforce the QR's life (QR30 itself carries no expiry). */
    qrTtlMinutes: number;
  };
  twoc2p: {
    apiBase: string | null;
    /** The card form's action (secure payment page). */
    securePayUrl: string | null;
    merchantId: string;
    secretKey: string;
  };
  gbprime: {
    apiBase: string | null;
    publicKey: string;
    secretKey: string;
    /** Customer token for the QR (PromptPay) API. */
    token: string;
  };
  paysolutions: {
    formUrl: string | null;
    apiBase: string | null;
    merchantId: string;
    apiKey: string;
    secretKey: string;
  };
  paypal: {
    apiBase: string | null;
    clientId: string;
    clientSecret: string;
  };
}

const SANDBOX_WEBHOOK_SECRET = Buffer.from('sandbox-omise-webhook-secret-0001').toString('base64');

/** The demo shop's built-in keys (good only against the loopback sandbox), by setting name. */
export const SANDBOX_KEYS = {
  OMISE_PUBLIC_KEY: 'pkey_test_sandbox5f7d2a',
  OMISE_SECRET_KEY: 'skey_test_sandbox9c41e8b',
  OMISE_WEBHOOK_SECRET: SANDBOX_WEBHOOK_SECRET,
  SCB_API_KEY: 'l7sandboxScbApiKey01',
  SCB_API_SECRET: 'sandboxScbApiSecret9f3e',
  SCB_BILLER_ID: '010555612345601',
  TWOC2P_MERCHANT_ID: 'JT01',
  TWOC2P_SECRET_KEY: 'sandbox2c2pSecretKeyA1B2C3D4E5F6',
  GBPRIME_PUBLIC_KEY: 'pk_sandbox_gbp_3b7a',
  GBPRIME_SECRET_KEY: 'sk_sandbox_gbp_81ce',
  GBPRIME_TOKEN: 'tk_sandbox_gbp_qr_55d0',
  PAYSOLUTIONS_MERCHANT_ID: '10012345',
  PAYSOLUTIONS_API_KEY: 'sandboxPaySolutionsApiKey',
  PAYSOLUTIONS_SECRET_KEY: 'sandboxPaySolutionsSecret',
  PAYPAL_CLIENT_ID: 'sandbox-paypal-client-id',
  PAYPAL_CLIENT_SECRET: 'sandbox-paypal-client-secret',
} as const;
export type ProviderKeySetting = keyof typeof SANDBOX_KEYS;

/** Settings that point a provider at its real API instead of the loopback sandbox. */
export const PROVIDER_URL_SETTINGS = ['OMISE_API_BASE', 'OMISE_VAULT_BASE', 'SCB_API_BASE', 'TWOC2P_API_BASE', 'TWOC2P_SECURE_PAY_URL', 'GBPRIME_API_BASE', 'PAYSOLUTIONS_FORM_URL', 'PAYSOLUTIONS_API_BASE', 'PAYPAL_API_BASE'] as const;

/**
 * What keeps a production start from being safe: every payment provider needs its real URLs and
 * its own keys (not a built-in sandbox key, not a URL of a /sandbox/ emulator), and the sandboxes
 * must be off (PAYMENTS_SANDBOX=off). One entry per missing or wrong setting.
 */
export function providerProblems(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  if (sandboxWanted(env)) out.push('PAYMENTS_SANDBOX=off (the sandbox routes /sandbox/* would be mounted)');
  for (const name of PROVIDER_URL_SETTINGS) {
    const v = s(env[name]);
    if (!v) out.push(`${name} (unset: the provider would be its loopback sandbox)`);
    else if (!/^https:\/\//i.test(v) || /\/sandbox(\/|$)/i.test(v)) out.push(`${name} (must be the provider's https URL, not a sandbox: ${v})`);
  }
  for (const [name, builtIn] of Object.entries(SANDBOX_KEYS)) {
    const v = s(env[name]);
    if (!v) out.push(`${name} (unset)`);
    else if (v === builtIn) out.push(`${name} (the built-in sandbox key)`);
  }
  return out;
}

/**
 * The loopback sandboxes are mounted in the demo shop unless PAYMENTS_SANDBOX=off; in production
 * only when PAYMENTS_SANDBOX=on asks for them (and then the start is refused).
 */
export function sandboxWanted(env: NodeJS.ProcessEnv): boolean {
  const v = (env.PAYMENTS_SANDBOX ?? '').trim().toLowerCase();
  if (env.NODE_ENV === 'production') return ['on', '1', 'true', 'yes'].includes(v);
  return !['off', '0', 'false', 'no'].includes(v);
}

function s(v: string | undefined): string | null {
  return v === undefined || v.trim() === '' ? null : v.trim();
}
function n(v: string | undefined, d: number): number {
  const x = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(x) && x > 0 ? x : d;
}

export function loadProvidersConfig(env: NodeJS.ProcessEnv = process.env): ProvidersConfig {
  // Built-in sandbox keys only for the demo shop (development and tests), never in production.
  const builtIn = env.NODE_ENV !== 'production';
  const key = (e: NodeJS.ProcessEnv, name: ProviderKeySetting): string => s(e[name]) ?? (builtIn ? SANDBOX_KEYS[name] : '');
  const threeDS = env.OMISE_SANDBOX_3DS === 'always' || env.OMISE_SANDBOX_3DS === 'never' ? env.OMISE_SANDBOX_3DS : 'enrolled';
  return {
    sandboxEnabled: sandboxWanted(env),
    publicOrigin: s(env.PUBLIC_ORIGIN),
    selfOrigin: s(env.PAYMENTS_SELF_ORIGIN),
    omise: {
      apiBase: s(env.OMISE_API_BASE),
      vaultBase: s(env.OMISE_VAULT_BASE),
      publicKey: key(env, 'OMISE_PUBLIC_KEY'),
      secretKey: key(env, 'OMISE_SECRET_KEY'),
      webhookSecret: key(env, 'OMISE_WEBHOOK_SECRET'),
      threeDS,
      promptpayTtlMinutes: n(env.OMISE_SANDBOX_PROMPTPAY_TTL_MINUTES, 24 * 60),
    },
    scb: {
      apiBase: s(env.SCB_API_BASE),
      applicationKey: key(env, 'SCB_API_KEY'),
      applicationSecret: key(env, 'SCB_API_SECRET'),
      billerId: key(env, 'SCB_BILLER_ID'),
      ref3Prefix: s(env.SCB_REF3_PREFIX) ?? 'SCB',
      qrTtlMinutes: n(env.SCB_QR_TTL_MINUTES, 15),
    },
    twoc2p: {
      apiBase: s(env.TWOC2P_API_BASE),
      securePayUrl: s(env.TWOC2P_SECURE_PAY_URL),
      merchantId: key(env, 'TWOC2P_MERCHANT_ID'),
      secretKey: key(env, 'TWOC2P_SECRET_KEY'),
    },
    gbprime: {
      apiBase: s(env.GBPRIME_API_BASE),
      publicKey: key(env, 'GBPRIME_PUBLIC_KEY'),
      secretKey: key(env, 'GBPRIME_SECRET_KEY'),
      token: key(env, 'GBPRIME_TOKEN'),
    },
    paysolutions: {
      formUrl: s(env.PAYSOLUTIONS_FORM_URL),
      apiBase: s(env.PAYSOLUTIONS_API_BASE),
      merchantId: key(env, 'PAYSOLUTIONS_MERCHANT_ID'),
      apiKey: key(env, 'PAYSOLUTIONS_API_KEY'),
      secretKey: key(env, 'PAYSOLUTIONS_SECRET_KEY'),
    },
    paypal: {
      apiBase: s(env.PAYPAL_API_BASE),
      clientId: key(env, 'PAYPAL_CLIENT_ID'),
      clientSecret: key(env, 'PAYPAL_CLIENT_SECRET'),
    },
  };
}

/** Every secret value in the config (for log redaction and the "no secret in a response" tests). */
export function secretValues(cfg: ProvidersConfig): string[] {
  return [
    cfg.omise.secretKey,
    cfg.omise.webhookSecret,
    Buffer.from(cfg.omise.webhookSecret, 'base64').toString('utf8'),
    cfg.scb.applicationSecret,
    cfg.twoc2p.secretKey,
    cfg.gbprime.secretKey,
    cfg.gbprime.token,
    cfg.paysolutions.apiKey,
    cfg.paysolutions.secretKey,
    cfg.paypal.clientSecret,
  ].filter((v) => v.length >= 8);
}
