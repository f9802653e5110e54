import { KYC_DOCUMENT_MESSAGES, uploadKycImageResponseSchema, type KycImagePurpose } from '#shared/contracts/kyc-documents';
import { ApiError } from '../../lib/api.ts';
import { parseUploadAnswer } from '../../lib/upload-answer.ts';

/**
 * One KYC photo as multipart (`file`, and for the selfie its `liveness` report): apiRequest speaks JSON only,
 * so this posts the form itself and reads the answer with the same contracts. Answers the photo's id.
 */
export async function uploadKycPhoto(purpose: KycImagePurpose, file: Blob, fileName: string, liveness?: unknown): Promise<string> {
  const form = new FormData();
  // The server reads the fields before the file, so the report goes first.
  if (liveness !== undefined) form.append('liveness', JSON.stringify(liveness));
  form.append('file', file, fileName);
  let response: Response;
  try {
    response = await fetch(`/api/kyc/level2/images/${purpose}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      body: form,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  const answer = await parseUploadAnswer(response, uploadKycImageResponseSchema, KYC_DOCUMENT_MESSAGES.chooseImage, KYC_DOCUMENT_MESSAGES.tooLarge);
  return answer.image.id;
}
