import type { FastifyRequest } from 'fastify';
import { requireAdmin, requireAdminOrVipReader } from '../../platform/sessions/service.ts';

/*
 * Route-level onRequest hooks: they run before the body or query is validated
 * or an upload is read, so a caller without the right role learns nothing about
 * the input rules and cannot make the server read a large file.
 */

export async function adminOnly(request: FastifyRequest): Promise<void> {
  requireAdmin(request);
}

export async function adminOrVipReader(request: FastifyRequest): Promise<void> {
  requireAdminOrVipReader(request);
}
