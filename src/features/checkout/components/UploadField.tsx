import { startTransition, useActionState } from 'react';
import { validateUpload } from '../../../../domain/forms/upload';
import { studentActors } from '../../../api/actors';
import { createActor, toPromise } from 'xstate';
import { msg } from '../../../i18n/messages';
import { UploadWidget } from '../../../ui';
import type { Shown } from '../../../../domain/messages';

interface UploadState {
  name: string | null;
  error: Shown | null;
}

/**
 * One image uploaded with uploadFile (profile picture, image custom fields); the stored file
 * name goes into the form through a hidden input. The registration machine takes file names.
 */
export function UploadField({ name, label, required, error }: { name: string; label: string; required?: boolean; error?: Shown | null }) {
  const [state, act, pending] = useActionState<UploadState, File | null>(async (_prev, file) => {
    if (!file) return { name: null, error: null };
    const check = validateUpload([{ name: file.name, size: file.size, type: file.type }], { kinds: ['image'] });
    if (!check.ok) return { name: null, error: check.errors[0]?.message ?? msg('FILE_TYPE_NOT_ALLOWED') };
    try {
      const actor = createActor(studentActors.uploadFile, { input: { imageinput: file } }).start();
      const answer = await toPromise(actor);
      return { name: answer.fileName[0] ?? null, error: null };
    } catch {
      return { name: null, error: msg('IMAGE_UPLOAD_FAILED') };
    }
  }, { name: null, error: null });
  return (
    <>
      <UploadWidget
        kind="image"
        label={label}
        required={required}
        files={state.name ? [{ name: state.name, url: `/uploads/${encodeURIComponent(state.name)}` }] : []}
        onAdd={(file) => startTransition(() => act(file))}
        onRemove={() => startTransition(() => act(null))}
        error={state.error ?? error}
        disabled={pending}
      />
      <input type="hidden" name={name} value={state.name ?? ''} />
    </>
  );
}
