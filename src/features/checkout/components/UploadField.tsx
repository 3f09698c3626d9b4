import { useActorRef, useSelector } from '@xstate/react';
import type { ChosenImage } from '../../../../machines/registration/image-upload.machine';
import { selectImageError, selectImageName, selectImageUploading } from '../../../../machines/registration/image-upload.selectors';
import { imageUploadLogic } from '../../../api/form-flows';
import { actorOptions } from '../../../api/actor-options';
import { UploadWidget } from '../../../ui';
import type { Shown } from '../../../../domain/messages';

/**
 * One image uploaded with uploadFile (profile picture, image custom fields): renders the
 * image-upload machine; the stored file name goes into the form through a hidden input. The
 * registration machine takes file names.
 */
export function UploadField({ name, label, required, error }: { name: string; label: string; required?: boolean; error?: Shown | null }) {
  const ref = useActorRef(imageUploadLogic, actorOptions('imageUpload'));
  const stored = useSelector(ref, selectImageName);
  const refusal = useSelector(ref, selectImageError);
  const uploading = useSelector(ref, selectImageUploading);
  return (
    <>
      <UploadWidget
        kind="image"
        label={label}
        required={required}
        files={stored ? [{ name: stored, url: `/uploads/${encodeURIComponent(stored)}` }] : []}
        onAdd={(file) => ref.send({ type: 'file.add', file: file as ChosenImage })}
        onRemove={() => ref.send({ type: 'file.remove' })}
        error={refusal ?? error}
        disabled={uploading}
      />
      <input type="hidden" name={name} value={stored ?? ''} />
    </>
  );
}
