import { Download, Upload } from 'lucide-react';
import { useId } from 'react';
import type { StoredFileView } from '#shared/contracts/settings';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { fullDateTimeText } from '../format.ts';
import { type UploadRules, type UploadTarget, useFileUpload } from './use-file-upload.ts';

const MEGABYTE = 1024 * 1024;

export function fileSizeText(bytes: number): string {
  if (bytes >= MEGABYTE) return `${(bytes / MEGABYTE).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export type { UploadRules } from './use-file-upload.ts';

/**
 * Picks a file, shows it (an image preview for QR codes), and uploads it on its
 * own button: files are stored at once, apart from 'Save All Settings'.
 */
export function FileUpload({
  label,
  target,
  rules,
  current,
  kind,
  onUploaded,
  help,
}: {
  label: string;
  /** What the file must be, under the title. */
  help?: string;
  target: UploadTarget;
  rules: UploadRules;
  current: StoredFileView | null;
  kind: 'image' | 'apk';
  /** Told the settings version before and after the upload, so the settings form can keep its edits saveable. */
  onUploaded: (settingsVersion: { before: string; after: string }) => void;
}) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const { chosen, previewUrl, error, uploading, inputKey, choose, upload } = useFileUpload({ target, rules, kind, onUploaded });

  return (
    <div role="group" aria-labelledby={`${inputId}-title`} className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
      <div className="flex flex-col gap-1">
        <p id={`${inputId}-title`} className="text-sm font-medium text-slate-700">
          {label}
        </p>
        {help && <p className="text-xs text-slate-500">{help}</p>}
      </div>
      {kind === 'image' && <ImagePreviews label={label} current={current} previewUrl={previewUrl} />}
      {kind === 'apk' && <CurrentAppFile current={current} />}
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId}>{current ? `Replace ${label}` : `Choose ${label}`}</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            key={inputKey}
            id={inputId}
            type="file"
            accept={rules.accept}
            className="h-auto py-2 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => choose(event.target.files?.[0])}
            disabled={uploading}
          />
          <Button variant="secondary" onClick={() => void upload()} disabled={!chosen || uploading} aria-busy={uploading}>
            <Upload />
            {uploading ? 'Uploading...' : 'Upload'}
          </Button>
        </div>
        <p className="text-xs text-slate-500">
          {chosen ? `${chosen.name}, ${fileSizeText(chosen.size)}. ` : ''}Uploaded files are stored right away, apart from Save All Settings.
        </p>
        {error && (
          <p id={errorId} className="text-sm text-red-600" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

/** The QR code stored now and, once a new one is chosen, the new one beside it. */
function ImagePreviews({ label, current, previewUrl }: { label: string; current: StoredFileView | null; previewUrl: string | null }) {
  return (
    <div className="flex flex-wrap gap-4">
      <figure className="flex flex-col items-center gap-1">
        {current ? (
          <img src={current.url} alt={`Current ${label}`} className="size-36 rounded-lg border border-slate-200 bg-white object-contain" />
        ) : (
          <div className="flex size-36 items-center justify-center rounded-lg border border-dashed border-slate-300 p-2 text-center text-xs text-slate-500">
            No QR code available
          </div>
        )}
        <figcaption className="text-xs text-slate-500">Current</figcaption>
      </figure>
      {previewUrl && (
        <figure className="flex flex-col items-center gap-1">
          <img src={previewUrl} alt={`New ${label} (not uploaded yet)`} className="size-36 rounded-lg border-2 border-brand-500 bg-white object-contain" />
          <figcaption className="text-xs text-slate-500">New (not uploaded yet)</figcaption>
        </figure>
      )}
    </div>
  );
}

function CurrentAppFile({ current }: { current: StoredFileView | null }) {
  if (!current) return <p className="text-sm text-slate-500">No app file has been uploaded yet.</p>;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 p-3 text-sm">
      <div className="min-w-0">
        <p className="break-all font-medium text-slate-900">{current.originalName}</p>
        <p className="text-slate-500">
          {fileSizeText(current.sizeBytes)} · uploaded {fullDateTimeText(current.uploadedAt)}
        </p>
      </div>
      <Button variant="outline" size="sm" asChild>
        <a href={current.url} download>
          <Download />
          Download
        </a>
      </Button>
    </div>
  );
}
