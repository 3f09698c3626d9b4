/**
 * The buyer's withholding tax certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย): a scan or a PDF.
 * The browser checks the chosen file with these rules before it uploads; the server checks the
 * same types and the file's first bytes (server/withholding/routes.ts).
 */
import { MSG, type Msg } from '../messages';

/** The certificate's file types: extension → the MIME types a browser gives it. */
export const CERTIFICATE_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  pdf: ['application/pdf'],
  jpg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  jpeg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  png: ['image/png'],
};

/** The `accept` list of the file input. */
export const CERTIFICATE_ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/**
 * Why this file cannot be the certificate, or null when it can: its extension must be one of the
 * types, and its MIME type (when the browser gives one) must agree; an empty file is refused.
 */
export function certificateFileProblem(file: { name: string; type: string; size: number }): Msg | null {
  const dot = file.name.lastIndexOf('.');
  const ext = dot < 0 ? '' : file.name.slice(dot + 1).toLowerCase();
  const mimes = CERTIFICATE_FILE_TYPES[ext];
  const mime = file.type.trim().toLowerCase();
  if (!mimes || (mime !== '' && !mimes.includes(mime))) return MSG.FILE_TYPE_NOT_ALLOWED;
  if (file.size <= 0) return MSG.FILE_REQUIRED;
  return null;
}
