import fastifyMultipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { administersRoute, reads } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import * as schemas from './schemas.js';
import { searchKnowledge } from './search-service.js';
import * as documentService from './document-service.js';
import { readDocumentUpload } from './document-upload.js';
import * as service from './service.js';

const tags = ['Knowledge bases'];

/**
 * Knowledge bases of the caller's application: list and search (the public interface), create,
 * read, change and delete (Tabularium's own; administrators only, under the scope `app:edit`).
 */
export const knowledgeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/knowledge', {
    config: { access: administersRoute('app:edit') },
    schema: { tags, summary: 'Create a knowledge base (ours); its worksheet sources are indexed in the background', body: schemas.CreateBaseBody, response: responses(schemas.CreatedOut) },
    handler: async (request) => ok(await service.createKnowledgeBase(serviceContext(request), request.body)),
  });

  app.post('/app/knowledge/list', {
    config: { access: reads('knowledge:list') },
    schema: { tags, summary: 'List the knowledge bases, newest first', body: schemas.ListBody, response: responses(schemas.ListOut) },
    handler: async (request) => ok(await service.listKnowledgeBases(serviceContext(request), request.body ?? {})),
  });

  app.post('/app/knowledge/search', {
    config: { access: reads('knowledge:search') },
    schema: { tags, summary: 'Search knowledge bases: the passages the caller may read that best match the query', body: schemas.SearchBody, response: responses(schemas.SearchOut) },
    handler: async (request) => ok(await searchKnowledge(serviceContext(request), request.body)),
  });

  app.get('/app/knowledge/:knowledge_id', {
    config: { access: reads('knowledge:list') },
    schema: { tags, summary: 'Get a knowledge base with its sources and indexing state (ours)', params: schemas.KnowledgeParams, response: responses(schemas.BaseOut) },
    handler: async (request) => ok(await service.getKnowledgeBase(serviceContext(request), request.params.knowledge_id)),
  });

  app.patch('/app/knowledge/:knowledge_id', {
    config: { access: administersRoute('app:edit') },
    schema: { tags, summary: 'Change a knowledge base: the keys sent replace the stored ones (ours)', params: schemas.KnowledgeParams, body: schemas.UpdateBaseBody, response: responses(schemas.BaseOut) },
    handler: async (request) => ok(await service.updateKnowledgeBase(serviceContext(request), request.params.knowledge_id, request.body)),
  });

  app.delete('/app/knowledge/:knowledge_id', {
    config: { access: administersRoute('app:edit') },
    schema: { tags, summary: 'Delete a knowledge base with its passages (ours)', params: schemas.KnowledgeParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteKnowledgeBase(serviceContext(request), request.params.knowledge_id);
      return ok(null);
    },
  });

  // The multipart parser is registered in a scope of this one route: no other route reads such a body.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart);
    scope.withTypeProvider<TypeBoxTypeProvider>().post('/app/knowledge/:knowledge_id/documents', {
      config: { access: administersRoute('app:edit') },
      schema: {
        tags,
        summary: 'Add a document to a knowledge base: from a URL or as text (JSON), or uploaded (multipart/form-data); it is ingested in the background (ours)',
        params: schemas.KnowledgeParams,
        body: schemas.AddDocumentBodies,
        response: responses(schemas.AddedDocumentOut),
      },
      handler: async (request, reply) => {
        const input = request.isMultipart() ? { read: () => readDocumentUpload(request, reply, app.config.knowledgeDocumentMaxBytes) } : (request.body as documentService.DocumentInput);
        return ok(await documentService.addDocument(serviceContext(request), request.params.knowledge_id, input));
      },
    });
  });

  app.post('/app/knowledge/:knowledge_id/documents/:document_id/retry', {
    config: { access: administersRoute('app:edit') },
    schema: { tags, summary: 'Ingest a failed document again from its kept bytes (ours)', params: schemas.DocumentParams, response: responses(schemas.AddedDocumentOut) },
    handler: async (request) => ok(await documentService.retryDocument(serviceContext(request), request.params.knowledge_id, request.params.document_id)),
  });

  app.get('/app/knowledge/:knowledge_id/documents', {
    config: { access: reads('knowledge:list') },
    schema: { tags, summary: 'List a knowledge base’s documents with their ingestion’s state (ours)', params: schemas.KnowledgeParams, response: responses(schemas.DocumentsOut) },
    handler: async (request) => ok(await documentService.listDocuments(serviceContext(request), request.params.knowledge_id)),
  });

  app.delete('/app/knowledge/:knowledge_id/documents/:document_id', {
    config: { access: administersRoute('app:edit') },
    schema: { tags, summary: 'Delete a document with its passages (ours)', params: schemas.DocumentParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await documentService.deleteDocument(serviceContext(request), request.params.knowledge_id, request.params.document_id);
      return ok(null);
    },
  });
};
