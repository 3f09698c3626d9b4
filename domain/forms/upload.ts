/**
 * Upload (spec 5 "Upload"): one file; image types jpg, png, jpeg, gif; video types m4v, mp4,
 * avi, mpg, quicktime; else 'File type is not allow to upload.'; 'Out off Storage' when the file
 * size in GB exceeds free storage.
 *
 * A file's kind is read from its MIME type; when the browser gives none, from its extension
 * (.mov is QuickTime, .jpe/.jpeg/.jpg are JPEG). 1 GB = 1024³ bytes.
 */
import { z } from 'zod/mini';
import { MSG } from '../messages';
import type { UploadItem } from '../types';
import type { FieldError, FormResult } from './common';
import { addMsgIssue, toFormResult } from './common';

export type UploadKind = 'image' | 'video';

export const IMAGE_TYPES = ['jpg', 'png', 'jpeg', 'gif'] as const;
export const VIDEO_TYPES = ['m4v', 'mp4', 'avi', 'mpg', 'quicktime'] as const;
export const UPLOAD_MAX_FILES = 1;
export const BYTES_PER_GB = 1024 ** 3;

const MIME: Record<UploadKind, readonly string[]> = {
  image: ['image/jpg', 'image/jpeg', 'image/pjpeg', 'image/png', 'image/gif'],
  video: ['video/x-m4v', 'video/m4v', 'video/mp4', 'video/avi', 'video/x-msvideo', 'video/msvideo', 'video/mpg', 'video/mpeg', 'video/quicktime'],
};
const EXT: Record<UploadKind, readonly string[]> = {
  image: ['jpg', 'jpeg', 'jpe', 'png', 'gif'],
  video: ['m4v', 'mp4', 'avi', 'mpg', 'mpeg', 'mov', 'qt'],
};

function extension(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i + 1).toLowerCase();
}

/** Is this file of an allowed type for the kinds accepted? */
export function isAllowedFileType(file: Pick<UploadItem, 'name' | 'type'>, kinds: readonly UploadKind[]): boolean {
  const mime = (file.type ?? '').trim().toLowerCase();
  if (mime !== '') return kinds.some((k) => MIME[k].includes(mime));
  const ext = extension(file.name);
  return kinds.some((k) => EXT[k].includes(ext));
}

/** Bytes in GB (1024³). */
export function bytesToGb(bytes: number): number {
  return bytes / BYTES_PER_GB;
}

/** Spec 5: "'Out off Storage' when the file size in GB exceeds free storage". */
export function exceedsStorage(bytes: number, freeStorageGb: number | null | undefined): boolean {
  return freeStorageGb !== null && freeStorageGb !== undefined && bytesToGb(bytes) > freeStorageGb;
}

export interface UploadOptions {
  /** Accepted kinds (default: image and video). */
  kinds?: readonly UploadKind[];
  /** Free storage in GB (GET /api/storage/details); null/undefined = not checked. */
  freeStorageGb?: number | null;
  /** At least one file must be chosen. */
  required?: boolean;
}

export function uploadErrors(files: readonly Pick<UploadItem, 'name' | 'size' | 'type'>[], options: UploadOptions = {}): FieldError[] {
  const kinds = options.kinds ?? ['image', 'video'];
  const errors: FieldError[] = [];
  if (files.length === 0 && options.required) errors.push({ path: 'files', message: MSG.FILE_REQUIRED });
  if (files.length > UPLOAD_MAX_FILES) errors.push({ path: 'files', message: MSG.ONE_FILE_ONLY });
  files.forEach((f, i) => {
    if (!isAllowedFileType(f, kinds)) errors.push({ path: `files.${i}`, message: MSG.FILE_TYPE_NOT_ALLOWED });
    else if (exceedsStorage(f.size, options.freeStorageGb)) errors.push({ path: `files.${i}`, message: MSG.OUT_OF_STORAGE });
  });
  return errors;
}

const uploadItem = z.looseObject({ name: z.string(), size: z.number().check(z.nonnegative()), type: z.string() });

export function uploadSchema(options: UploadOptions = {}) {
  return z.array(uploadItem).check(
    z.superRefine((files, ctx) => {
      for (const e of uploadErrors(files, options)) addMsgIssue(ctx, e.message, e.path.split('.').slice(1).map(Number));
    }),
  );
}

export type UploadData = z.output<ReturnType<typeof uploadSchema>>;

/** Validate chosen files: { ok, errors }. */
export function validateUpload(files: readonly Pick<UploadItem, 'name' | 'size' | 'type'>[], options: UploadOptions = {}): FormResult<UploadData> {
  const r = toFormResult(uploadSchema(options).safeParse(files));
  return r.ok ? r : { ok: false, errors: r.errors.map((e) => ({ ...e, path: e.path === '' ? 'files' : `files.${e.path}` })) };
}
