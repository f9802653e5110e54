import { idParamsSchema } from '#shared/contracts/common';
import {
  PAYOUT_BATCH_MESSAGES,
  createPayoutBatchRequestSchema,
  payoutBatchDetailResponseSchema,
  payoutBatchListQuerySchema,
  payoutBatchListResponseSchema,
  payoutBatchResponseSchema,
  payoutResultsPreviewResponseSchema,
  payoutResultsRequestSchema,
  payoutResultsResponseSchema,
} from '#shared/contracts/payout-batches';
import { firstApprovalResponseSchema } from '#shared/contracts/pending-changes';
import { payoutBatchCandidatesQuerySchema, payoutBatchCandidatesResponseSchema } from '#shared/contracts/payout-batches';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../../platform/idempotency/service.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RESULTS_CSV_MAX_BYTES, resultRowsFromCsv } from './csv.ts';
import { listBatchCandidates } from './candidates.ts';
import * as payoutBatchService from './service.ts';

const actorOf = (request: { ip: string }, userId: string) => ({ adminUserId: userId, ipAddress: request.ip });

/** Making, listing, downloading and reading batches. */
function registerBatchRoutes(app: ApiApp, db: AppContext['database']['db']): void {
  app.post(
    '/api/admin/payout-batches',
    {
      schema: {
        tags: ['admin'],
        summary: 'Put pending withdrawals (the named ones, or the oldest pending) into a new payout batch, all processing; accepts an Idempotency-Key header',
        body: createPayoutBatchRequestSchema,
        response: responses({ 201: payoutBatchResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await payoutBatchService.createBatch(
        db,
        actorOf(request, sessionOf(request).userId),
        request.body?.withdrawalIds,
        readIdempotencyKey(request),
      );
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  app.get(
    '/api/admin/payout-batches/candidates',
    {
      schema: {
        tags: ['admin'],
        summary: 'The pending withdrawals a new batch may take, oldest first, filtered by amount, age and bank (at most one batch of them)',
        querystring: payoutBatchCandidatesQuerySchema,
        response: responses({ 200: payoutBatchCandidatesResponseSchema }),
      },
    },
    async (request) => listBatchCandidates(db, sessionOf(request).userId, request.query),
  );

  app.get(
    '/api/admin/payout-batches',
    {
      schema: {
        tags: ['admin'],
        summary: 'Payout batches, newest first',
        querystring: payoutBatchListQuerySchema,
        response: responses({ 200: payoutBatchListResponseSchema }),
      },
    },
    async (request) => payoutBatchService.listBatches(db, request.query),
  );

  app.get(
    '/api/admin/payout-batches/:id.csv',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The bank’s bulk-payment file of a batch, in the layout the settings name when it is first downloaded (which issues it); every download is recorded (X-Already-Downloaded names the first)',
        params: idParamsSchema,
      },
    },
    async (request, reply) => {
      const exported = await payoutBatchService.batchFile(db, actorOf(request, sessionOf(request).userId), request.params.id);
      return reply
        .type(exported.contentType)
        .header('content-disposition', `attachment; filename="${exported.fileName}"`)
        .header('x-row-count', String(exported.rows))
        .header('x-file-sha256', exported.sha256)
        .headers(exported.notice === null ? {} : { 'x-already-downloaded': exported.notice })
        .send(exported.body);
    },
  );

  app.get(
    '/api/admin/payout-batches/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'A payout batch and its withdrawals',
        params: idParamsSchema,
        response: responses({ 200: payoutBatchDetailResponseSchema }),
      },
    },
    async (request) => payoutBatchService.getBatch(db, request.params.id),
  );
}

/** The bank's results file: its preview, and its application in one transaction. */
function registerResultsRoutes(app: ApiApp, db: AppContext['database']['db']): void {
  app.post(
    '/api/admin/payout-batches/:id/results/preview',
    {
      config: { acceptsCsv: true },
      schema: {
        tags: ['admin'],
        summary: 'What a results file (JSON rows or text/csv) would do: paid, failed, not sent, problems and totals; changes nothing',
        params: idParamsSchema,
        body: payoutResultsRequestSchema,
        response: responses({ 200: payoutResultsPreviewResponseSchema }),
      },
    },
    async (request) => payoutBatchService.previewResults(db, actorOf(request, sessionOf(request).userId), request.params.id, request.body.rows),
  );

  app.post(
    '/api/admin/payout-batches/:id/results',
    {
      config: { acceptsCsv: true },
      schema: {
        tags: ['admin'],
        summary:
          'Apply the bank’s results (JSON rows or text/csv: reference, outcome, utr, reason, amount) in one transaction; a row with a problem refuses the whole file; idempotent per row',
        params: idParamsSchema,
        body: payoutResultsRequestSchema,
        response: responses({ 200: payoutResultsResponseSchema }),
      },
    },
    async (request) => payoutBatchService.applyResults(db, actorOf(request, sessionOf(request).userId), request.params.id, request.body.rows),
  );
}

/** The cancel of a batch: by one admin before its file was downloaded, by two after it (issue 31, section 2). */
function registerBatchCancelRoute(app: ApiApp, db: AppContext['database']['db']): void {
  app.post(
    '/api/admin/payout-batches/:id/cancel',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Cancel a batch in which nothing is decided: before its file is downloaded the withdrawals return to pending; after, it needs a second admin (202) and leaves them in doubt; accepts an Idempotency-Key header',
        params: idParamsSchema,
        response: responses({ 200: payoutBatchResponseSchema, 202: firstApprovalResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await payoutBatchService.cancelBatch(db, actorOf(request, sessionOf(request).userId), request.params.id, readIdempotencyKey(request));
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );
}

/** Payout batches (issue 13): registered inside the admin area, which requires a PIN-verified admin session. */
export function registerPayoutBatchAdminRoutes(area: ApiApp, context: AppContext): void {
  const { db } = context.database;
  // A plugin of its own so that the CSV body parser serves only these routes.
  void area.register(async (plugin) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();
    // A CSV results file becomes the rows of the JSON form here, so the same schema (and the character rule) checks both.
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: RESULTS_CSV_MAX_BYTES }, (_request, body, done) => {
      const rows = resultRowsFromCsv(String(body));
      if (rows === undefined) done(AppError.fieldError('body', PAYOUT_BATCH_MESSAGES.badCsv), undefined);
      else done(null, { rows });
    });
    registerBatchRoutes(app, db);
    registerResultsRoutes(app, db);
    registerBatchCancelRoute(app, db);
  });
}
