import type { z } from 'zod';
import { errorResponseSchema } from '#shared/errors';
import { ApiError } from './api.ts';

/**
 * The answer to a request apiRequest cannot send (a file, a CSV body), checked with the same contracts
 * and error shape. Kept apart from api.ts so that the first visit's code does not carry zod.
 */
export async function parseUploadAnswer<T extends z.ZodType>(
  response: Response,
  schema: T,
  failure: string,
  tooLarge = 'The file is too large.',
): Promise<z.output<T>> {
  let payload: unknown;
  try {
    payload = JSON.parse(await response.text());
  } catch {
    payload = undefined;
  }
  if (!response.ok) {
    const parsed = errorResponseSchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields } = parsed.data.error;
      throw new ApiError(response.status, code, message, fields);
    }
    throw new ApiError(response.status, 'HTTP', response.status === 413 ? tooLarge : failure);
  }
  return schema.parse(payload);
}
