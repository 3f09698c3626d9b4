import { useEffect, useId, useMemo, useRef } from 'react';
import { t } from '../i18n/messages';
import { TrashIcon } from './icons';
import { FieldError, FieldHint, RequiredMark } from './Field';
import type { Shown } from '../../domain/messages';

/** A chosen file: a local File (not uploaded yet) or a file already on the server (url). */
export interface UploadEntry {
  name: string;
  size?: number;
  type?: string;
  /** Server URL of an uploaded file. */
  url?: string | null;
  /** The local file, for the preview. */
  file?: Blob | null;
}

export type UploadKind = 'image' | 'video';

export const UPLOAD_ACCEPT: Record<UploadKind, string> = {
  image: '.jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif',
  video: '.m4v,.mp4,.avi,.mpg,.mov,video/mp4,video/x-m4v,video/avi,video/x-msvideo,video/mpeg,video/quicktime',
};

export interface UploadWidgetProps {
  kind: UploadKind;
  label: string;
  files: readonly UploadEntry[];
  /** A file was chosen; the owner (a machine) validates type, size and storage. */
  onAdd: (file: File) => void;
  /** The delete action of a listed file (absent: files cannot be removed here). */
  onRemove?: (name: string) => void;
  error?: Shown | null;
  hint?: string;
  required?: boolean;
  disabled?: boolean;
  /** Files allowed (spec: 1); the upload button hides once reached. */
  maxFiles?: number;
  testId?: string;
}

function sizeText(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function Preview({ entry, kind }: { entry: UploadEntry; kind: UploadKind }) {
  const objectUrl = useMemo(() => (entry.file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(entry.file) : null), [entry.file]);
  useEffect(() => () => {
    if (objectUrl) URL.revokeObjectURL(objectUrl);
  }, [objectUrl]);
  const src = objectUrl ?? entry.url ?? null;
  if (!src) return null;
  const alt = t('previewOf', { name: entry.name });
  return kind === 'image' ? <img className="ui-upload__preview" src={src} alt={alt} /> : <video className="ui-upload__preview" src={src} controls aria-label={alt} />;
}

/**
 * Image or video upload: preview, the file list with a delete action per file, and a single
 * upload button that hides once the file limit (1) is reached.
 */
export function UploadWidget({ kind, label, files, onAdd, onRemove, error, hint, required, disabled, maxFiles = 1, testId }: UploadWidgetProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = `u${useId().replace(/:/g, '')}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const full = files.length >= maxFiles;
  return (
    <div className={['ui-upload', error ? 'ui-field--invalid' : ''].filter(Boolean).join(' ')} data-testid={testId}>
      <span className="ui-field__label" id={`${id}-label`}>
        {label}
        {required ? <RequiredMark /> : null}
      </span>
      {files.length > 0 ? (
        <ul className="ui-upload__list" aria-label={t('fileList')}>
          {files.map((entry) => (
            <li key={entry.name} className="ui-upload__item">
              <Preview entry={entry} kind={kind} />
              <span className="ui-upload__name">{entry.name}</span>
              <span className="ui-upload__size">{sizeText(entry.size)}</span>
              {onRemove ? (
                <button type="button" className="ui-btn ui-btn--link" onClick={() => onRemove(entry.name)} aria-label={t('deleteFile', { name: entry.name })} disabled={disabled}>
                  <TrashIcon />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <input
        ref={inputRef}
        id={id}
        type="file"
        className="ui-visually-hidden"
        accept={UPLOAD_ACCEPT[kind]}
        tabIndex={-1}
        aria-hidden="true"
        disabled={disabled || full}
        data-testid={testId ? `${testId}-input` : undefined}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) onAdd(file);
        }}
      />
      {full ? null : (
        <button
          type="button"
          className="ui-btn ui-btn--secondary ui-upload__button"
          aria-describedby={describedBy}
          aria-labelledby={`${id}-label ${id}-button`}
          id={`${id}-button`}
          disabled={disabled}
          onClick={() => inputRef.current?.click()}
        >
          {kind === 'image' ? t('uploadImage') : t('uploadVideo')}
        </button>
      )}
      <FieldHint id={`${id}-hint`} hint={hint} />
      <FieldError id={`${id}-error`} error={error} alert />
    </div>
  );
}
