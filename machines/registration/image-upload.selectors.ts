import type { SnapshotFrom } from 'xstate';
import type { Shown } from '../../domain/messages';
import type { imageUploadMachine } from './image-upload.machine';

type S = SnapshotFrom<typeof imageUploadMachine>;

/** The widget is disabled while the file is uploaded. */
export const selectImageUploading = (s: S): boolean => s.matches('uploading');
/** The stored file name (shown, and the hidden input's value), null when none. */
export const selectImageName = (s: S): string | null => s.context.name;
/** Why the last file was refused or not stored. */
export const selectImageError = (s: S): Shown | null => s.context.error;
