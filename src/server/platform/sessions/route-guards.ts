import type { FastifyRequest } from 'fastify';
import { requireAdmin, requirePinVerifiedSession } from './service.ts';

/*
 * Route options that refuse a caller before the request's input is validated,
 * so that someone without the right session learns nothing about the input rules.
 */

/** Customer money routes: a session whose transaction PIN was verified. */
export const pinVerifiedRoute = { preValidation: async (request: FastifyRequest) => void requirePinVerifiedSession(request) };

/** Admin decisions and queues of the money features: the admin role. */
export const adminRoute = { preValidation: async (request: FastifyRequest) => void requireAdmin(request) };
