/** The server tests' clock: every test app and the seeded template database are dated at NOW. */
export const NOW = new Date('2026-03-02T03:00:00Z');
