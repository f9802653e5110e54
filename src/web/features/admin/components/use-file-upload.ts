import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { DepositNetwork } from '#shared/contracts/enums';
import { errorMessage } from '../../../lib/api.ts';
import { QUERY_KEYS } from '../../../lib/query-keys.ts';
import { adminKeys, uploadSettingsFile } from '../api.ts';

export interface UploadRules {
  accept: string;
  maxBytes: number;
  tooLargeMessage: string;
  /** An error for a file of the wrong kind, checked before sending; the server checks the bytes again. */
  checkType: (file: File) => string | undefined;
}

export type UploadTarget = { kind: 'qr'; network: DepositNetwork } | { kind: 'apk' };

/**
 * The file upload's state: the file chosen (checked against the rules before it is kept), its image
 * preview, the upload to the server and the settings lists read again afterwards.
 */
export function useFileUpload({
  target,
  rules,
  kind,
  onUploaded,
}: {
  target: UploadTarget;
  rules: UploadRules;
  kind: 'image' | 'apk';
  onUploaded: (settingsVersion: { before: string; after: string }) => void;
}) {
  const queryClient = useQueryClient();
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

  return { chosen, previewUrl, error, uploading, inputKey, choose, upload };
}
