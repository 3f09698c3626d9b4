import { describe, expect, it } from 'vitest';
import { REGISTRATION_CODES, REGISTRATION_MESSAGES, registrationMessage } from '../../machines/registration/registration-errors';
import { modelSuite } from './support/suite';
import { registerAndLoginModel } from './models/register-and-login.model';

modelSuite(registerAndLoginModel);

describe('registration codes (spec section 8)', () => {
  it('maps every code to its own message', () => {
    const messages = REGISTRATION_CODES.map((c) => registrationMessage(c));
    expect(new Set(messages).size).toBe(REGISTRATION_CODES.length);
    expect(messages).toEqual(REGISTRATION_CODES.map((c) => REGISTRATION_MESSAGES[c]));
    expect(registrationMessage('NETWORK_ERROR')).toBe(REGISTRATION_MESSAGES.INPUT_ERROR);
  });
});
