/**
 * Signing the e-Tax data with the shop's certificate (docs/design/tax-documents.md, decision in
 * docs/spec/decisions.md): an XAdES-BES enveloped signature, made by the kept library xadesjs
 * (on xmldsigjs, Node's WebCrypto), over the whole e-Tax XML (reference URI "", transforms
 * enveloped-signature + Canonical XML 1.0, digest SHA-256, RSASSA-PKCS1-v1_5 SHA-256), with the
 * certificate in KeyInfo/X509Data and as the XAdES SigningCertificate, and the signing time. The
 * signature is the last child of the root element, where ETDA's schema places its optional
 * `ds:Signature`. The PDF itself is not signed (no PAdES).
 *
 * Settings (environment, docs/operations.md):
 *   DOCUMENT_SIGNING_CERT  PEM file: the shop's certificate (the first certificate in the file)
 *   DOCUMENT_SIGNING_KEY   PEM file: its RSA private key, PKCS#8 (`BEGIN PRIVATE KEY`), unencrypted
 * Neither set: the demo shop signs with a self-signed demo certificate it makes once (openssl) in
 * DOCUMENT_SIGNING_DEMO_DIR (default .data/signing); production leaves the data unsigned. Set but
 * wrong (one of the two, a file missing, not a certificate / key, the key not the certificate's,
 * the certificate expired): production refuses to start while tax invoices are enabled
 * (server/main.ts), anything else logs the problem and leaves the data unsigned.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as xmldom from '@xmldom/xmldom';
import xpath from 'xpath';
import * as xadesjs from 'xadesjs';

let engineReady = false;
function engine(): void {
  if (engineReady) return;
  xadesjs.setNodeDependencies({ XMLSerializer: xmldom.XMLSerializer, DOMParser: xmldom.DOMParser, DOMImplementation: xmldom.DOMImplementation, xpath } as unknown as Parameters<typeof xadesjs.setNodeDependencies>[0]);
  xadesjs.Application.setEngine('NodeJS', webcrypto as unknown as Crypto);
  engineReady = true;
}

export interface DocumentSigner {
  /** The certificate's subject and validity (for logs and the doc). */
  subject: string;
  notAfter: Date;
  /** The XML with an enveloped XAdES-BES `ds:Signature` appended to its root element. */
  sign(xml: string, at: Date): Promise<string>;
}

export interface SigningFiles {
  certFile: string;
  keyFile: string;
}

export class SigningProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningProblem';
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The configured files: null when neither is set, a problem when only one is. */
export function signingFiles(env: NodeJS.ProcessEnv): SigningFiles | null | SigningProblem {
  const certFile = env.DOCUMENT_SIGNING_CERT?.trim() || null;
  const keyFile = env.DOCUMENT_SIGNING_KEY?.trim() || null;
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) return new SigningProblem(`DOCUMENT_SIGNING_CERT and DOCUMENT_SIGNING_KEY go together (only ${certFile ? 'the certificate' : 'the key'} is set)`);
  return { certFile, keyFile };
}

const der = (pem: string, label: string): Buffer | null => {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`, 'u').exec(pem);
  return m ? Buffer.from(m[1]!.replace(/\s+/gu, ''), 'base64') : null;
};

/** Reads and checks the certificate and key; throws SigningProblem saying what is wrong. */
export async function loadSigner(files: SigningFiles, now: Date = new Date()): Promise<DocumentSigner> {
  engine();
  const read = (f: string, what: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch (err) {
      throw new SigningProblem(`${what} ${f} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  };
  const certPem = read(files.certFile, 'DOCUMENT_SIGNING_CERT');
  const keyPem = read(files.keyFile, 'DOCUMENT_SIGNING_KEY');
  const certDer = der(certPem, 'CERTIFICATE');
  if (!certDer) throw new SigningProblem(`DOCUMENT_SIGNING_CERT ${files.certFile} holds no PEM certificate`);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certDer);
  } catch {
    throw new SigningProblem(`DOCUMENT_SIGNING_CERT ${files.certFile} is not an X.509 certificate`);
  }
  const keyDer = der(keyPem, 'PRIVATE KEY');
  if (!keyDer) throw new SigningProblem(`DOCUMENT_SIGNING_KEY ${files.keyFile} holds no unencrypted PKCS#8 key (-----BEGIN PRIVATE KEY-----)`);
  let matches = false;
  try {
    const pub = createPublicKey(createPrivateKey({ key: keyDer, format: 'der', type: 'pkcs8' }));
    matches = pub.equals(cert.publicKey);
  } catch {
    throw new SigningProblem(`DOCUMENT_SIGNING_KEY ${files.keyFile} is not a private key`);
  }
  if (!matches) throw new SigningProblem(`DOCUMENT_SIGNING_KEY is not the key of the certificate ${cert.subject.replace(/\n/gu, ', ')}`);
  if (cert.publicKey.asymmetricKeyType !== 'rsa') throw new SigningProblem(`the signing certificate's key is ${cert.publicKey.asymmetricKeyType ?? 'unknown'}: an RSA key is required`);
  const notAfter = new Date(cert.validTo);
  if (notAfter.getTime() <= now.getTime()) throw new SigningProblem(`the signing certificate expired on ${notAfter.toISOString()}`);
  if (new Date(cert.validFrom).getTime() > now.getTime()) throw new SigningProblem(`the signing certificate is valid only from ${new Date(cert.validFrom).toISOString()}`);

  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const key = await webcrypto.subtle.importKey('pkcs8', keyDer, alg, false, ['sign']);
  const certB64 = certDer.toString('base64');
  return {
    subject: cert.subject.replace(/\n/gu, ', '),
    notAfter,
    async sign(xml, at) {
      engine();
      const doc = xadesjs.Parse(xml);
      const signed = new xadesjs.SignedXml();
      await signed.Sign(alg, key as unknown as CryptoKey, doc, {
        x509: [certB64],
        signingCertificate: certB64,
        signingTime: { value: at },
        references: [{ uri: '', hash: 'SHA-256', transforms: ['enveloped', 'c14n'] }],
      });
      doc.documentElement.appendChild(signed.GetXml()!);
      const out = new xmldom.XMLSerializer().serializeToString(doc as unknown as xmldom.Node);
      return out.startsWith('<?xml') ? out : `<?xml version="1.0" encoding="UTF-8"?>\n${out}`;
    },
  };
}

/** Checks an enveloped signature made by `sign` (tests, and anyone holding a document's XML). */
export async function verifySignedXml(xml: string): Promise<boolean> {
  engine();
  const doc = xadesjs.Parse(xml);
  const sigs = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature');
  if (sigs.length !== 1) return false;
  const signed = new xadesjs.SignedXml(doc);
  signed.LoadXml(sigs[0]!);
  try {
    return await signed.Verify();
  } catch {
    // xmldsigjs throws on a digest that does not match (changed data): not valid.
    return false;
  }
}

/**
 * The demo shop's self-signed certificate: made once with openssl (RSA 2048, 10 years,
 * CN "Course Shop demo e-Tax signing") in `dir`, then reused. Null when openssl is missing.
 */
export function demoSigningFiles(dir: string): SigningFiles | null {
  const files = { certFile: join(dir, 'demo-cert.pem'), keyFile: join(dir, 'demo-key.pem') };
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return files;
  // Made in a folder of its own, then renamed into place whole: of two processes starting
  // together, one folder wins and both use its matching pair.
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '3650', '-subj', '/CN=Course Shop demo e-Tax signing/O=Demo shop (not a real certificate)/C=TH', '-keyout', join(tmp, 'demo-key.pem'), '-out', join(tmp, 'demo-cert.pem')], { stdio: 'ignore' });
    renameSync(tmp, dir);
  } catch {
    // openssl missing, or another process renamed its folder first.
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return existsSync(files.certFile) && existsSync(files.keyFile) ? files : null;
}

export interface SignerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The signer an app uses: the configured certificate, else (demo shop) the demo certificate, else
 * none. A wrong configuration is logged and gives none (production refuses to start before this:
 * `signingProblems`).
 */
export async function signerFromEnv(env: NodeJS.ProcessEnv, demo: boolean, log: SignerLog): Promise<DocumentSigner | null> {
  const files = signingFiles(env);
  if (files instanceof SigningProblem) {
    log.warn({ problem: files.message }, 'e-Tax data left unsigned');
    return null;
  }
  const use = files ?? (demo ? demoSigningFiles(env.DOCUMENT_SIGNING_DEMO_DIR?.trim() || join(ROOT, '.data', 'signing')) : null);
  if (!use) return null;
  try {
    const signer = await loadSigner(use);
    log.info({ subject: signer.subject, notAfter: signer.notAfter.toISOString(), demo: files === null }, 'e-Tax data signed (XAdES-BES)');
    return signer;
  } catch (err) {
    log.warn({ problem: err instanceof Error ? err.message : String(err) }, 'e-Tax data left unsigned');
    return null;
  }
}

/** Why production must not start (empty when it may): signing configured wrongly while tax invoices are enabled. */
export async function signingProblems(env: NodeJS.ProcessEnv, taxInvoicesEnabled: boolean, now: Date = new Date()): Promise<string[]> {
  if (!taxInvoicesEnabled) return [];
  const files = signingFiles(env);
  if (files === null) return [];
  if (files instanceof SigningProblem) return [files.message];
  try {
    await loadSigner(files, now);
    return [];
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
}
