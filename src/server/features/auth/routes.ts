import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  forgotPasswordRequestSchema,
  PASSWORD_CHANGED_MESSAGE,
  forgotPasswordResponseSchema,
  loginRequestSchema,
  resetLinkCheckRequestSchema,
  resetLinkCheckResponseSchema,
  resetPasswordRequestSchema,
  sessionResponseSchema,
  signupRequestSchema,
} from '#shared/contracts/auth';
import { ACCOUNT_CLOSING_MESSAGES, closeAccountRequestSchema, closeAccountResponseSchema } from '#shared/contracts/account-closing';
import { okResponseSchema } from '#shared/contracts/common';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { loadMe } from '../users/me.ts';
import { closeAccount } from './account-closing.ts';
import * as authService from './service.ts';

export function registerAuthRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/auth/signup',
    { schema: { tags: ['auth'], summary: 'Create an account and sign in', body: signupRequestSchema, response: responses({ 201: sessionResponseSchema }) } },
    async (request, reply) => {
      const userId = await authService.signUp(context, request, reply, request.body);
      return reply.code(201).send({ user: await loadMe(db, { userId, pinVerified: false }) });
    },
  );

  app.post(
    '/api/auth/login',
    { schema: { tags: ['auth'], summary: 'Sign in with e-mail and password', body: loginRequestSchema, response: responses({ 200: sessionResponseSchema }) } },
    async (request, reply) => {
      const userId = await authService.logIn(context, request, reply, request.body.email, request.body.password);
      return { user: await loadMe(db, { userId, pinVerified: false }) };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], summary: 'Sign out and end this session', response: responses({ 200: okResponseSchema }) } },
    async (request, reply) => {
      await authService.logOut(context, request, reply);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a password reset link (same answer whether or not the account exists)',
        body: forgotPasswordRequestSchema,
        response: responses({ 202: forgotPasswordResponseSchema }),
      },
    },
    async (request, reply) => {
      await authService.requestPasswordReset(context, request, request.body.email);
      return reply.code(202).send({ message: authService.RESET_REQUEST_ANSWER });
    },
  );

  app.post(
    '/api/auth/reset-password/check',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether a password reset link still works (asked when its page opens; uses nothing up)',
        body: resetLinkCheckRequestSchema,
        response: responses({ 200: resetLinkCheckResponseSchema }),
      },
    },
    async (request) => ({ valid: await authService.checkPasswordResetLink(context, request, request.body.token) }),
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link token',
        body: resetPasswordRequestSchema,
        response: responses({ 200: okResponseSchema }),
      },
    },
    async (request) => {
      await authService.resetPassword(context, request.log, request.body.token, request.body.password);
      return { ok: true as const };
    },
  );
}

/** Changing the password of the signed-in, PIN-verified user; registered inside the customer area. */
export function registerPasswordChangeRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/auth/change-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change the password (the current one is needed); ends every other session and e-mails the owner',
        body: changePasswordRequestSchema,
        response: responses({ 200: changePasswordResponseSchema }),
      },
    },
    async (request, reply) => {
      const sessionsEnded = await authService.changePassword(context, request, reply, sessionOf(request), request.body);
      return { message: PASSWORD_CHANGED_MESSAGE, sessionsEnded };
    },
  );
}

/** Closing one's own account (decision 060); registered inside the customer area, so the PIN was verified too. */
export function registerAccountClosingRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/auth/close-account',
    {
      schema: {
        tags: ['auth'],
        summary: 'Close your own account (the current password is needed; a zero balance and nothing in progress); every session ends, the records are kept',
        body: closeAccountRequestSchema,
        response: responses({ 200: closeAccountResponseSchema }),
      },
    },
    async (request, reply) => {
      await closeAccount(context, request, reply, sessionOf(request), request.body.currentPassword);
      return { message: ACCOUNT_CLOSING_MESSAGES.closed };
    },
  );
}
