import { describe, expect, it } from 'vitest';
import { bytesToGb, exceedsStorage, isAllowedFileType, uploadSchema, validateUpload, BYTES_PER_GB } from '../../../domain/forms/upload';
import type { UploadKind } from '../../../domain/forms/upload';
import { MSG } from '../../../domain/messages';

const f = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('spec 5 "Upload: one file; image types jpg, png, jpeg, gif; video types m4v, mp4, avi, mpg, quicktime; else \'File type is not allow to upload.\'"', () => {
  it.each<[string, string, UploadKind[], boolean]>([
    ['a.jpg', 'image/jpeg', ['image'], true],
    ['a.jpeg', 'image/jpeg', ['image'], true],
    ['a.png', 'image/png', ['image'], true],
    ['a.gif', 'image/gif', ['image'], true],
    ['a.webp', 'image/webp', ['image'], false],
    ['a.svg', 'image/svg+xml', ['image'], false],
    ['a.m4v', 'video/x-m4v', ['video'], true],
    ['a.mp4', 'video/mp4', ['video'], true],
    ['a.avi', 'video/x-msvideo', ['video'], true],
    ['a.mpg', 'video/mpeg', ['video'], true],
    ['a.mov', 'video/quicktime', ['video'], true],
    ['a.mkv', 'video/x-matroska', ['video'], false],
    ['a.mp4', 'video/mp4', ['image'], false],
    ['a.png', 'image/png', ['image', 'video'], true],
    ['a.exe', 'application/octet-stream', ['image', 'video'], false],
    ['A.JPG', '', ['image'], true],
    ['clip.mov', '', ['video'], true],
    ['noext', '', ['image', 'video'], false],
  ])('%s (%s) as %j -> %j', (name, type, kinds, ok) => {
    expect(isAllowedFileType({ name, type }, kinds)).toBe(ok);
  });

  it('the message for a wrong type', () => {
    expect(validateUpload([f('a.pdf', 'application/pdf')], { kinds: ['image'] })).toEqual({
      ok: false,
      errors: [{ path: 'files.0', message: MSG.FILE_TYPE_NOT_ALLOWED }],
    });
  });

  it('one file only; none when required', () => {
    expect(validateUpload([f('a.png', 'image/png'), f('b.png', 'image/png')]).errors).toEqual([{ path: 'files', message: MSG.ONE_FILE_ONLY }]);
    expect(validateUpload([], { required: true }).errors).toEqual([{ path: 'files', message: MSG.FILE_REQUIRED }]);
    expect(validateUpload([]).ok).toBe(true);
  });
});

describe('spec 5 "\'Out off Storage\' when the file size in GB exceeds free storage"', () => {
  it.each([
    [BYTES_PER_GB, 1, false],
    [BYTES_PER_GB + 1, 1, true],
    [BYTES_PER_GB / 2, 0.4, true],
    [10, 0, true],
    [10, null, false],
    [10, undefined, false],
  ])('%i bytes with %j GB free -> exceeds %j', (bytes, free, exceeds) => {
    expect(exceedsStorage(bytes, free)).toBe(exceeds);
  });

  it('message', () => {
    expect(validateUpload([f('a.mp4', 'video/mp4', 3 * BYTES_PER_GB)], { freeStorageGb: 2 })).toEqual({
      ok: false,
      errors: [{ path: 'files.0', message: MSG.OUT_OF_STORAGE }],
    });
    expect(validateUpload([f('a.mp4', 'video/mp4', BYTES_PER_GB)], { freeStorageGb: 2 }).ok).toBe(true);
    expect(bytesToGb(BYTES_PER_GB * 3)).toBe(3);
  });

  it('the zod schema refuses malformed items', () => {
    expect(uploadSchema().safeParse([{ name: 'a.png' }]).success).toBe(false);
    expect(uploadSchema().safeParse([{ name: 'a.png', type: 'image/png', size: 1, imageSize: '1,1' }]).success).toBe(true);
  });
});
