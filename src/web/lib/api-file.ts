import { errorResponseSchema } from '#shared/errors';
import { ApiError } from './api.ts';

/**
 * Downloads a file the API makes (a GET). A refusal throws an ApiError as apiRequest does, read with the
 * shared error schema; this lives apart from api.ts so that the landing page's first JavaScript does not carry it.
 */
export async function apiFile(path: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  if (response.ok) return response.blob();
  const answer = errorResponseSchema.safeParse(await response.json().catch(() => undefined));
  if (answer.success) throw new ApiError(response.status, answer.data.error.code, answer.data.error.message, answer.data.error.fields ?? {});
  throw new ApiError(response.status, 'HTTP', response.status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request failed.');
}
