import {
  BANK_ACCOUNT_MESSAGES,
  bankAccountDeleteResponseSchema,
  bankAccountInputSchema,
  bankAccountListResponseSchema,
  bankAccountResponseSchema,
  bankAccountUpdateSchema,
  ifscLookupParamsSchema,
  ifscLookupResponseSchema,
} from '#shared/contracts/bank-accounts';
import { idParamsSchema } from '#shared/contracts/common';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as bankAccountService from './service.ts';
import { payeeCheckConfig } from '../../env.ts';

export function registerBankAccountRoutes(app: ApiApp, context: AppContext): void {
  registerBankAccountReads(app, context);
  registerBankAccountChanges(app, context);
}

/** The customer's saved accounts and the IFSC lookup the form asks while an account is typed. */
function registerBankAccountReads(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/bank-accounts',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'The customer’s saved bank accounts (account numbers by their last 4 digits)',
        response: responses({ 200: bankAccountListResponseSchema }),
      },
    },
    async (request) => ({
      items: await bankAccountService.listBankAccounts(db, sessionOf(request).userId),
      newAccountPauseHours: context.config.securityCoolingOffHours,
      checkedWithBank: payeeCheckConfig(context.config) !== undefined,
    }),
  );

  app.get(
    '/api/bank-accounts/ifsc/:ifscCode',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'The bank of an IFSC code from the IFSC dataset and its branch when the IFSC API knows it; 404 for a code no bank branch uses',
        params: ifscLookupParamsSchema,
        response: responses({ 200: ifscLookupResponseSchema }),
      },
    },
    async (request) => bankAccountService.findIfsc(context, request.log, request.params.ifscCode),
  );
}

/** Saving, changing and deleting one of the caller's accounts. */
function registerBankAccountChanges(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/bank-accounts',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'Save a bank account',
        body: bankAccountInputSchema,
        response: responses({ 201: bankAccountResponseSchema }),
      },
    },
    async (request, reply) => {
      const bankAccount = await bankAccountService.addBankAccount(context, request.log, sessionOf(request).userId, request.body);
      return reply.code(201).send({ bankAccount, message: BANK_ACCOUNT_MESSAGES.added });
    },
  );

  app.patch(
    '/api/bank-accounts/:id',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'Change a saved bank account (fields left out stay as they are)',
        params: idParamsSchema,
        body: bankAccountUpdateSchema,
        response: responses({ 200: bankAccountResponseSchema }),
      },
    },
    async (request) => {
      const bankAccount = await bankAccountService.updateBankAccount(context, request.log, sessionOf(request).userId, request.params.id, request.body);
      return { bankAccount, message: BANK_ACCOUNT_MESSAGES.updated };
    },
  );

  app.delete(
    '/api/bank-accounts/:id',
    {
      schema: {
        tags: ['bank-accounts'],
        summary: 'Delete a saved bank account (refused while a withdrawal to it is pending)',
        params: idParamsSchema,
        response: responses({ 200: bankAccountDeleteResponseSchema }),
      },
    },
    async (request) => {
      await bankAccountService.deleteBankAccount(db, sessionOf(request).userId, request.params.id);
      return { ok: true as const, message: BANK_ACCOUNT_MESSAGES.deleted };
    },
  );
}
