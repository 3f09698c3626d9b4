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

function s(v: string | undefined): string | null {
  return v === undefined || v.trim() === '' ? null : v.trim();
}
function n(v: string | undefined, d: number): number {
  const x = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(x) && x > 0 ? x : d;
}

export function loadProvidersConfig(env: NodeJS.ProcessEnv = process.env): ProvidersConfig {
  const threeDS = env.OMISE_SANDBOX_3DS === 'always' || env.OMISE_SANDBOX_3DS === 'never' ? env.OMISE_SANDBOX_3DS : 'enrolled';
  return {
    sandboxEnabled: !['off', '0', 'false', 'no'].includes((env.PAYMENTS_SANDBOX ?? '').toLowerCase()),
    publicOrigin: s(env.PUBLIC_ORIGIN),
    selfOrigin: s(env.PAYMENTS_SELF_ORIGIN),
    omise: {
      apiBase: s(env.OMISE_API_BASE),
      vaultBase: s(env.OMISE_VAULT_BASE),
      publicKey: s(env.OMISE_PUBLIC_KEY) ?? 'pkey_test_sandbox5f7d2a',
      secretKey: s(env.OMISE_SECRET_KEY) ?? 'skey_test_sandbox9c41e8b',
      webhookSecret: s(env.OMISE_WEBHOOK_SECRET) ?? SANDBOX_WEBHOOK_SECRET,
      threeDS,
      promptpayTtlMinutes: n(env.OMISE_SANDBOX_PROMPTPAY_TTL_MINUTES, 24 * 60),
    },
    scb: {
      apiBase: s(env.SCB_API_BASE),
      applicationKey: s(env.SCB_API_KEY) ?? 'l7sandboxScbApiKey01',
      applicationSecret: s(env.SCB_API_SECRET) ?? 'sandboxScbApiSecret9f3e',
      billerId: s(env.SCB_BILLER_ID) ?? '010555612345601',
      ref3Prefix: s(env.SCB_REF3_PREFIX) ?? 'SCB',
      qrTtlMinutes: n(env.SCB_QR_TTL_MINUTES, 15),
    },
    twoc2p: {
      apiBase: s(env.TWOC2P_API_BASE),
      securePayUrl: s(env.TWOC2P_SECURE_PAY_URL),
      merchantId: s(env.TWOC2P_MERCHANT_ID) ?? 'JT01',
      secretKey: s(env.TWOC2P_SECRET_KEY) ?? 'sandbox2c2pSecretKeyA1B2C3D4E5F6',
    },
    gbprime: {
      apiBase: s(env.GBPRIME_API_BASE),
      publicKey: s(env.GBPRIME_PUBLIC_KEY) ?? 'pk_sandbox_gbp_3b7a',
      secretKey: s(env.GBPRIME_SECRET_KEY) ?? 'sk_sandbox_gbp_81ce',
      token: s(env.GBPRIME_TOKEN) ?? 'tk_sandbox_gbp_qr_55d0',
    },
    paysolutions: {
      formUrl: s(env.PAYSOLUTIONS_FORM_URL),
      apiBase: s(env.PAYSOLUTIONS_API_BASE),
      merchantId: s(env.PAYSOLUTIONS_MERCHANT_ID) ?? '10012345',
      apiKey: s(env.PAYSOLUTIONS_API_KEY) ?? 'sandboxPaySolutionsApiKey',
      secretKey: s(env.PAYSOLUTIONS_SECRET_KEY) ?? 'sandboxPaySolutionsSecret',
    },
    paypal: {
      apiBase: s(env.PAYPAL_API_BASE),
      clientId: s(env.PAYPAL_CLIENT_ID) ?? 'sandbox-paypal-client-id',
      clientSecret: s(env.PAYPAL_CLIENT_SECRET) ?? 'sandbox-paypal-client-secret',
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
