/** Spec section 8 "Registration codes": every code the registration answers, with its message. */
import { MSG, type Msg } from '../../domain/messages';

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

export const REGISTRATION_MESSAGES: Readonly<Record<RegistrationCode, Msg>> = {
  INPUT_ERROR: MSG.INPUT_ERROR,
  OVER_LIMIT_USER: MSG.OVER_LIMIT_USER,
  ERROR_CREATE_USER_IN_DAY: MSG.ERROR_CREATE_USER_IN_DAY,
  DUPLICATE_USERNAME: MSG.DUPLICATE_USERNAME,
  DUPLICATE_EMAIL: MSG.DUPLICATE_EMAIL,
  INVALID_FORMAT_USERNAME: MSG.INVALID_FORMAT_USERNAME,
  INVALID_FORMAT_PASSWORD: MSG.INVALID_FORMAT_PASSWORD,
  INVALID_FORMAT_EMAIL: MSG.INVALID_FORMAT_EMAIL,
};

/** The message for a registration failure code; anything else (network, 5xx) reads as INPUT_ERROR (cannot save, try again). */
export function registrationMessage(code: string): Msg {
  return (REGISTRATION_MESSAGES as Record<string, Msg>)[code] ?? MSG.INPUT_ERROR;
}
