// Provider references of payment attempts (server/payments/common.ts attemptRef).
import { describe, expect, it } from 'vitest';
import { attemptRef } from '../../server/payments/common';

describe('attempt references', () => {
  it('never repeat in a process, even for one order under a clock that stands still', () => {
    const now = new Date('2026-11-26T10:00:00.000Z');
    const refs = Array.from({ length: 2000 }, () => attemptRef('G', 42, now));
    expect(new Set(refs).size).toBe(refs.length);
  });

  it('are A-Z 0-9, start with the prefix and the order id, and stay within 20 characters', () => {
    for (const id of [1, 42, 123456, 1234567890]) {
      const ref = attemptRef('I', id, new Date());
      expect(ref).toMatch(/^[A-Z0-9]{1,20}$/u);
      expect(ref.startsWith(`I${id}T`)).toBe(true);
    }
  });
});
