/**
 * One image field of the registration form (profile picture, image custom fields): the chosen
 * file is checked (an image, within the size limit: domain/forms/upload.ts) and uploaded
 * (uploadFile); the stored file name goes into the form through a hidden input (the registration
 * machine takes file names). The view sends `file.add` / `file.remove` and renders the state:
 * `idle` with the stored name or the last refusal, `uploading` (the widget disabled).
 */
import { assign, setup } from 'xstate';
import { validateUpload } from '../../domain/forms/upload';
import { MSG, type Shown } from '../../domain/messages';
import type { UploadRequest, UploadResponse } from '../shared/api';
import { providedByApp } from '../shared/provided';

/** The chosen file: what the check reads, and the bytes sent. */
export type ChosenImage = Blob & { name: string };

export interface ImageUploadContext {
  /** The stored file name (the hidden input's value), null when none. */
  name: string | null;
  /** Why the last file was refused or not stored; null otherwise. */
  error: Shown | null;
  /** The file being uploaded (only while uploading). */
  file: ChosenImage | null;
}

export type ImageUploadEvent = { type: 'file.add'; file: ChosenImage } | { type: 'file.remove' };

/** The first reason the file is refused (not an image, too large), or null when it may be uploaded. */
export function imageRefusal(file: ChosenImage): Shown | null {
  const check = validateUpload([{ name: file.name, size: file.size, type: file.type }], { kinds: ['image'] });
  return check.ok ? null : (check.errors[0]?.message ?? MSG.FILE_TYPE_NOT_ALLOWED);
}

export const imageUploadMachine = setup({
  types: { context: {} as ImageUploadContext, events: {} as ImageUploadEvent },
  actors: {
    uploadFile: providedByApp<UploadResponse, UploadRequest>('uploadFile'),
  },
  guards: {
    refused: (_, file: ChosenImage) => imageRefusal(file) !== null,
  },
}).createMachine({
  id: 'imageUpload',
  context: { name: null, error: null, file: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'file.add': [
          {
            guard: { type: 'refused', params: ({ event }) => event.file },
            actions: assign(({ event }) => ({ name: null, error: imageRefusal(event.file) })),
          },
          { target: 'uploading', actions: assign(({ event }) => ({ file: event.file })) },
        ],
        'file.remove': { actions: assign({ name: null, error: null }) },
      },
    },
    uploading: {
      invoke: {
        id: 'uploadFile',
        src: 'uploadFile',
        input: ({ context }) => ({ imageinput: context.file as ChosenImage }),
        onDone: { target: 'idle', actions: assign(({ event }) => ({ name: event.output.fileName[0] ?? null, error: null, file: null })) },
        onError: { target: 'idle', actions: assign({ name: null, error: MSG.IMAGE_UPLOAD_FAILED, file: null }) },
      },
    },
  },
});
