import { kycPanResponseSchema, type KycStatus } from '#shared/contracts/kyc';
import { KYC_DOCUMENT_MESSAGES, uploadKycImageResponseSchema, type KycImagePurpose } from '#shared/contracts/kyc-documents';
import type { z } from 'zod';
import { ApiError } from '../../lib/api.ts';
import { parseUploadAnswer } from '../../lib/upload-answer.ts';

/** Posts a multipart form: apiRequest speaks JSON only, so this sends the form itself and reads the answer with the same contracts. */
async function postPhoto<T extends z.ZodType>(url: string, form: FormData, schema: T): Promise<z.output<T>> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' }, body: form });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  return parseUploadAnswer(response, schema, KYC_DOCUMENT_MESSAGES.chooseImage, KYC_DOCUMENT_MESSAGES.tooLarge);
}

/** One KYC photo as multipart (`file`, and for the selfie its `liveness` report). Answers the photo's id. */
export async function uploadKycPhoto(purpose: KycImagePurpose, file: Blob, fileName: string, liveness?: unknown): Promise<string> {
  const form = new FormData();
  // The server reads the fields before the file, so the report goes first.
  if (liveness !== undefined) form.append('liveness', JSON.stringify(liveness));
  form.append('file', file, fileName);
  const answer = await postPhoto(`/api/kyc/level2/images/${purpose}`, form, uploadKycImageResponseSchema);
  return answer.image.id;
}

/** The live selfie's frames that passed (at most 3, `file` parts in order) with the report naming each frame's scores (decision 052). */
export async function uploadSelfieFrames(frames: Blob[], liveness: unknown): Promise<string> {
  const form = new FormData();
  // The server reads the fields before the files, so the report goes first.
  form.append('liveness', JSON.stringify(liveness));
  frames.forEach((frame, index) => form.append('file', frame, `selfie-${index + 1}.jpg`));
  const answer = await postPhoto('/api/kyc/level2/images/selfie', form, uploadKycImageResponseSchema);
  return answer.image.id;
}

/** The photo of the PAN card for the admin's check of a waiting PAN (decision 066). Answers the server's message and the KYC status. */
export async function uploadPanCardPhoto(file: Blob, fileName: string): Promise<{ message: string; kyc: KycStatus }> {
  const form = new FormData();
  form.append('file', file, fileName);
  return postPhoto('/api/kyc/pan/card-image', form, kycPanResponseSchema);
}
