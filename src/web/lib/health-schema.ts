import { z } from 'zod';

/** GET /api/health; imported on demand by health.ts (a dynamic import of 'zod' itself would bundle all of zod). */
export const healthResponseSchema = z.object({ status: z.literal('ok') });
