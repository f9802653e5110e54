import { z } from 'zod';
import { PENDING_CHANGE_MESSAGES } from '#shared/contracts/pending-changes';
import { qrNetworkParamsSchema, uploadFilePendingResponseSchema, uploadFileResponseSchema } from '#shared/contracts/settings';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { errorResponseSchema } from '#shared/errors';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { APK_DOWNLOAD_NAME, openApk, openQrImage, uploadSettingsFile } from './service.ts';

const FILE_UPLOADED_MESSAGE = 'File uploaded successfully';
/** The file itself is streamed as it is stored, without serialization. */
const fileResponses = { 200: z.unknown().describe('The file bytes'), '4xx': errorResponseSchema, '5xx': errorResponseSchema };

/** Admin uploads; registered inside the admin area. */
export function registerFileAdminRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/admin/files/qr/:network',
    {
      config: { acceptsFileUpload: true },
      schema: {
        tags: ['admin'],
        summary:
          "Upload the QR image of a deposit network (multipart; PNG or JPEG up to 2 MB whose QR code shows the network's current deposit address; admin only)",
        consumes: ['multipart/form-data'],
        params: qrNetworkParamsSchema,
        response: responses({ 201: uploadFileResponseSchema }),
      },
    },
    async (request, reply) => {
      const purpose = request.params.network === 'TRC20' ? 'qr_trc20' : 'qr_erc20';
      const uploaded = await uploadSettingsFile(context, request, sessionOf(request), purpose);
      return reply.code(201).send({ message: FILE_UPLOADED_MESSAGE, ...uploaded });
    },
  );

  app.post(
    '/api/admin/files/apk',
    {
      config: { acceptsFileUpload: true },
      schema: {
        tags: ['admin'],
        summary: 'Upload the Android app (multipart; APK up to 200 MB; admin only); 202 while two admins exist: offered once a second admin confirms',
        consumes: ['multipart/form-data'],
        response: responses({ 201: uploadFileResponseSchema, 202: uploadFilePendingResponseSchema }),
      },
    },
    async (request, reply) => {
      const { pendingChange, ...uploaded } = await uploadSettingsFile(context, request, sessionOf(request), 'apk');
      if (pendingChange) return reply.code(202).send({ message: PENDING_CHANGE_MESSAGES.appFileAwaitsSecondAdmin, file: uploaded.file, pendingChange });
      return reply.code(201).send({ message: FILE_UPLOADED_MESSAGE, ...uploaded });
    },
  );
}

/** The public downloads of uploaded files. */
export function registerPublicFileRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/files/qr/:network',
    { schema: { tags: ['settings'], summary: 'The QR image of a deposit network (public)', params: qrNetworkParamsSchema, response: fileResponses } },
    async (request, reply) => {
      const file = await openQrImage(context, request.params.network);
      return reply.header('content-type', file.contentType).header('content-length', file.sizeBytes).header('content-disposition', 'inline').send(file.stream);
    },
  );

  app.get(
    '/api/files/apk',
    { schema: { tags: ['settings'], summary: 'Download the Android app (public)', response: fileResponses } },
    async (_request, reply) => {
      const file = await openApk(context);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.sizeBytes)
        .header('content-disposition', `attachment; filename="${APK_DOWNLOAD_NAME}"`)
        .send(file.stream);
    },
  );
}
