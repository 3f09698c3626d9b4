/**
 * Request bodies and environments the server tests build again and again: a one-file
 * multipart/form-data body, and a production environment where every setting is real.
 */
import { PROVIDER_URL_SETTINGS, SANDBOX_KEYS } from '../../../server/providers/config';

/** One file in a multipart/form-data body (the part named `field`), with its content-type header. */
export function multipart(field: string, filename: string, type: string, data: Buffer): { raw: Buffer; headers: Record<string, string> } {
  const boundary = '----test' + Math.random().toString(16).slice(2);
  const raw = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A production environment where every setting is real. */
export function realEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', ADMIN_TOKEN: 'Vq3x9LmT7rPz2KdW8sYbN4cF6hJgA1eU0oRi', PUBLIC_ORIGIN: 'https://shop.example.com' };
  for (const name of PROVIDER_URL_SETTINGS) env[name] = `https://api.${name.toLowerCase().split('_')[0]}.example/v1`;
  for (const name of Object.keys(SANDBOX_KEYS)) env[name] = `real-${name.toLowerCase()}-0123456789`;
  return env;
}
