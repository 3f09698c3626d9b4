/** Spec section 8 "Registration codes": every code the registration answers, with its message. */
import { MESSAGES } from '../../domain/messages';

export const REGISTRATION_CODES = [
  'INPUT_ERROR',
  'OVER_LIMIT_USER',
  'ERROR_CREATE_USER_IN_DAY',
  'DUPLICATE_USERNAME',
  'DUPLICATE_EMAIL',
  'INVALID_FORMAT_USERNAME',
  'INVALID_FORMAT_PASSWORD',
  'INVALID_FORMAT_EMAIL',
] as const;

export type RegistrationCode = (typeof REGISTRATION_CODES)[number];

export const REGISTRATION_MESSAGES: Readonly<Record<RegistrationCode, string>> = {
  INPUT_ERROR: MESSAGES.INPUT_ERROR,
  OVER_LIMIT_USER: MESSAGES.OVER_LIMIT_USER,
  ERROR_CREATE_USER_IN_DAY: MESSAGES.ERROR_CREATE_USER_IN_DAY,
  DUPLICATE_USERNAME: MESSAGES.DUPLICATE_USERNAME,
  DUPLICATE_EMAIL: MESSAGES.DUPLICATE_EMAIL,
  INVALID_FORMAT_USERNAME: MESSAGES.INVALID_FORMAT_USERNAME,
  INVALID_FORMAT_PASSWORD: MESSAGES.INVALID_FORMAT_PASSWORD,
  INVALID_FORMAT_EMAIL: MESSAGES.INVALID_FORMAT_EMAIL,
};

/** The message for a registration failure code; anything else (network, 5xx) reads as INPUT_ERROR (cannot save, try again). */
export function registrationMessage(code: string): string {
  return (REGISTRATION_MESSAGES as Record<string, string>)[code] ?? MESSAGES.INPUT_ERROR;
}
