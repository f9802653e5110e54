import { useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import type { StoredFileView } from '#shared/contracts/settings';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { QUERY_KEYS } from '../../../lib/query-keys.ts';
import { adminKeys, uploadSettingsFile } from '../api.ts';
import { fullDateTimeText } from '../format.ts';
import type { DepositNetwork } from '#shared/contracts/enums';

const MEGABYTE = 1024 * 1024;

export function fileSizeText(bytes: number): string {
  if (bytes >= MEGABYTE) return `${(bytes / MEGABYTE).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export interface UploadRules {
  accept: string;
  maxBytes: number;
  tooLargeMessage: string;
  /** An error for a file of the wrong kind, checked before sending; the server checks the bytes again. */
  checkType: (file: File) => string | undefined;
}

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
  target: { kind: 'qr'; network: DepositNetwork } | { kind: 'apk' };
  rules: UploadRules;
  current: StoredFileView | null;
  kind: 'image' | 'apk';
  /** Told the settings version before and after the upload, so the settings form can keep its edits saveable. */
  onUploaded: (settingsVersion: { before: string; after: string }) => void;
}) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const [chosen, setChosen] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [uploading, setUploading] = useState(false);
  // A new key empties the file input after an upload.
  const [inputKey, setInputKey] = useState(0);

  useEffect(() => () => void (previewUrl && URL.revokeObjectURL(previewUrl)), [previewUrl]);

  const choose = (file: File | undefined) => {
    setError(undefined);
    setChosen(null);
    setPreviewUrl(null);
    if (!file) return;
    const problem = file.size > rules.maxBytes ? rules.tooLargeMessage : rules.checkType(file);
    if (problem) {
      setError(problem);
      return;
    }
    setChosen(file);
    if (kind === 'image') setPreviewUrl(URL.createObjectURL(file));
  };

  const upload = async () => {
    if (!chosen) return;
    setUploading(true);
    setError(undefined);
    try {
      const answer = await uploadSettingsFile(target, chosen);
      if ('pendingChange' in answer) {
        // Stored, but offered only once a second admin confirms (decision 024): the settings did not change.
        toast.info('App file awaits a second admin', { description: answer.message, duration: 10_000 });
      } else {
        onUploaded(answer.settingsVersion);
        toast.success(answer.message);
      }
      setChosen(null);
      setPreviewUrl(null);
      setInputKey((key) => key + 1);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.settings() }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.publicSettings }),
      ]);
    } catch (uploadError) {
      const message = errorMessage(uploadError, 'The upload failed. Please try again.');
      setError(message);
      toast.error('Failed to upload file', { description: message });
    } finally {
      setUploading(false);
    }
  };

  return (
    <div role="group" aria-labelledby={`${inputId}-title`} className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4">
      <div className="flex flex-col gap-1">
        <p id={`${inputId}-title`} className="text-sm font-medium text-slate-700">
          {label}
        </p>
        {help && <p className="text-xs text-slate-500">{help}</p>}
      </div>
      {kind === 'image' && (
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
      )}
      {kind === 'apk' &&
        (current ? (
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
        ) : (
          <p className="text-sm text-slate-500">No app file has been uploaded yet.</p>
        ))}
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
