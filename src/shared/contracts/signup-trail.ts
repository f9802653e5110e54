import { z } from 'zod';

/**
 * What the browser could tell about where the customer is at sign-up: a position when they allowed it,
 * or that they refused or the browser could not tell. Refusing never blocks the sign-up.
 */
export const signupGeolocationSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('granted'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    accuracyMeters: z.number().min(0).max(1_000_000),
  }),
  z.object({ status: z.enum(['denied', 'unavailable']) }),
]);
export type SignupGeolocation = z.infer<typeof signupGeolocationSchema>;
