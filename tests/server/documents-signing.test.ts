// The signing settings (server/documents/signing.ts): what production refuses to start with while
// tax invoices are enabled, and that a signature over the e-Tax XML verifies and a changed figure
// does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoSigningFiles, loadSigner, signingFiles, signingProblems, verifySignedXml, type SigningFiles } from '../../server/documents/signing';

let dir: string;
let a: SigningFiles;
let b: SigningFiles;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'signing-'));
  a = demoSigningFiles(join(dir, 'a'))!;
  b = demoSigningFiles(join(dir, 'b'))!;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (cert?: string, key?: string) => ({ ...(cert ? { DOCUMENT_SIGNING_CERT: cert } : {}), ...(key ? { DOCUMENT_SIGNING_KEY: key } : {}) });

describe('signing settings', () => {
  it('the demo certificate is made once and reused', () => {
    expect(a).toBeTruthy();
    expect(demoSigningFiles(join(dir, 'a'))).toEqual(a);
  });

  it('nothing set: unsigned, no problem; tax invoices off: never a problem', async () => {
    expect(signingFiles({})).toBeNull();
    expect(await signingProblems({}, true)).toEqual([]);
    expect(await signingProblems(env(a.certFile), false)).toEqual([]);
  });

  it('refuses one of the two, a missing file, a key of another certificate, an expired certificate, a file that is no certificate', async () => {
    expect(await signingProblems(env(a.certFile), true)).toEqual([expect.stringMatching(/go together/u)]);
    expect(await signingProblems(env(a.certFile, join(dir, 'nope.pem')), true)).toEqual([expect.stringMatching(/cannot be read/u)]);
    expect(await signingProblems(env(a.certFile, b.keyFile), true)).toEqual([expect.stringMatching(/not the key of the certificate/u)]);
    expect(await signingProblems(env(a.certFile, a.keyFile), true, new Date(Date.now() + 11 * 365 * 86_400_000))).toEqual([expect.stringMatching(/expired/u)]);
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'hello');
    expect(await signingProblems(env(junk, a.keyFile), true)).toEqual([expect.stringMatching(/no PEM certificate/u)]);
    expect(await signingProblems(env(a.certFile, a.keyFile), true)).toEqual([]);
  });

  it('signs XML with an enveloped XAdES-BES signature that verifies; a changed figure does not', async () => {
    const signer = await loadSigner(a);
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<rsm:X xmlns:rsm="urn:x" xmlns:ram="urn:y"><ram:GrandTotalAmount>1070.00</ram:GrandTotalAmount></rsm:X>\n';
    const signed = await signer.sign(xml, new Date('2026-03-02T03:00:00Z'));
    expect(signed).toMatch(/<ds:Signature [^>]*><ds:SignedInfo>.*<ds:Reference URI="">.*enveloped-signature.*<\/ds:Signature><\/rsm:X>/su);
    expect(signed).toContain('<xades:SigningTime>2026-03-02T03:00:00.000Z</xades:SigningTime>');
    expect(signed).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(await verifySignedXml(signed)).toBe(true);
    expect(await verifySignedXml(signed.replace('1070.00', '1.00'))).toBe(false);
    expect(await verifySignedXml(xml)).toBe(false);
  });
});
