import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { actorOf } from '../../plugins/authentication.js';
import { downloadByLink, downloadForApp, type Download } from './service.js';
import { reads } from '../../access/index.js';

const tags = ['Files'];
const FileParams = Type.Object({ file_id: Type.String({ description: 'The id of an attached file (`id` in an Attachment value)' }) });

/** Sends a file as a download: the sniffed type, the original name, never rendered by the browser as a page of ours. */
function sendFile(reply: FastifyReply, file: Download) {
  return reply
    .header('content-type', file.mimeType)
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300')
    .send(file.bytes);
}

/** Downloads of attached files, with the application's credentials (under the API prefixes). */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/files/:file_id', {
    config: { access: reads('record:get') },
    schema: { tags, summary: 'Download an attached file of this application', params: FileParams },
    handler: async (request, reply) => sendFile(reply, await downloadForApp(app.database.db, app.files, request.params.file_id, actorOf(request).appId)),
  });
};

/** Downloads by signed, expiring link (`downloadUrl` of an Attachment value): no credentials, at `/files/{id}`. */
export const signedFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/files/:file_id', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Download an attached file by its signed link',
      params: FileParams,
      querystring: Type.Object({ expires: Type.Integer({ description: 'Epoch seconds' }), signature: Type.String() }),
    },
    handler: async (request, reply) =>
      sendFile(reply, await downloadByLink(app.database.db, app.files, request.params.file_id, request.query.expires, request.query.signature, app.clock())),
  });
};
