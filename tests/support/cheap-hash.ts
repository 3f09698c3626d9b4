/**
 * A password hashed as server/auth/password.ts stores it (`scrypt$N$r$p$salt$key`), with N = 1024
 * instead of the shop's 16384. The server verifies a hash by the parameters it records, so an
 * account with such a hash logs in through the same code, each login costing the shop about a
 * sixteenth of the CPU (56 ms at N = 16384 on the AMD EPYC machine). For the tests' own accounts
 * only: the browser tests' fresh students (tests/e2e/engine/fixtures.ts) and the demo accounts of
 * the server tests' template (tests/server/support/pglite-template.ts); a hash the server makes
 * (registration, a password changed) keeps the shop's cost.
 */
import { randomBytes, scryptSync } from 'node:crypto';

export function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 });
  return `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}
