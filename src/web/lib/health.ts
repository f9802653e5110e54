import { apiRequest } from './api.ts';

/** GET /api/health: whether the API and its database answer. Its schema loads on demand, so zod stays out of the chunk that asks. */
export const checkHealth = () => apiRequest('/api/health', async () => (await import('./health-schema.ts')).healthResponseSchema);
