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

/** Where the customer is, when they allow the browser to tell (FIU-IND wants it recorded); refusing or an unknown position is an answer too. */
export function askBrowserPosition(): Promise<
  { status: 'granted'; latitude: number; longitude: number; accuracyMeters: number } | { status: 'denied' | 'unavailable' }
> {
  if (!('geolocation' in navigator)) return Promise.resolve({ status: 'unavailable' });
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) =>
        resolve({
          status: 'granted',
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracyMeters: Math.min(position.coords.accuracy, 1_000_000),
        }),
      (error) => resolve({ status: error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable' }),
      { timeout: 10_000, maximumAge: 60_000 },
    );
  });
}
