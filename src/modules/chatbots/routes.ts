import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { administersRoute, reads, writes } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { sendEventStream } from '../../plugins/event-stream.js';
import * as conversations from './conversations.js';
import * as messages from './messages.js';
import type { AnswerDeps } from './messages.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['Chatbots'];

/**
 * Chatbots: create (the public interface), read, list, change and delete (Tabularium's own, under the
 * same scope), and the caller's conversations with one. Talking to a chatbot searches knowledge, so
 * conversations go under `knowledge:search`.
 */
export const chatbotRoutes: FastifyPluginAsyncTypebox<{ answers: AnswerDeps }> = async (app, { answers }) => {
  app.post('/app/chatbots/:chatbot_id/messages', {
    config: { access: writes('knowledge:search') },
    schema: { tags, summary: 'Ask a chatbot: the answer with the passages it cites, whole or as Server-Sent Events', params: schemas.ChatbotParams, body: schemas.MessageBody, response: responses(schemas.AnsweredOut) },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      if (!request.body.stream) return ok(await messages.sendMessage(ctx, answers, request.params.chatbot_id, request.body));
      const abort = new AbortController();
      return sendEventStream(request, reply, await messages.streamMessage(ctx, answers, request.params.chatbot_id, request.body, abort.signal), abort);
    },
  });

  app.post('/app/chatbots', {
    config: { access: administersRoute('chatbot:create') },
    schema: { tags, summary: 'Create a chatbot, placed as an item of a section', body: schemas.CreateChatbotBody, response: responses(Type.Object({ id: Type.String() })) },
    handler: async (request) => ok(await service.createChatbot(serviceContext(request), request.body)),
  });

  app.get('/app/chatbots', {
    config: { access: reads('app:get') },
    schema: { tags, summary: 'List the chatbots the caller may use', response: responses(schemas.ChatbotListOut) },
    handler: async (request) => ok(await service.listChatbots(serviceContext(request))),
  });

  app.get('/app/chatbots/:chatbot_id', {
    config: { access: reads('app:get') },
    schema: { tags, summary: 'Get a chatbot', params: schemas.ChatbotParams, response: responses(schemas.ChatbotOut) },
    handler: async (request) => ok(await service.getChatbot(serviceContext(request), request.params.chatbot_id)),
  });

  app.patch('/app/chatbots/:chatbot_id', {
    config: { access: administersRoute('chatbot:create') },
    schema: { tags, summary: 'Change a chatbot: the keys sent replace the stored ones', params: schemas.ChatbotParams, body: schemas.UpdateChatbotBody, response: responses(schemas.ChatbotOut) },
    handler: async (request) => ok(await service.updateChatbot(serviceContext(request), request.params.chatbot_id, request.body)),
  });

  app.delete('/app/chatbots/:chatbot_id', {
    config: { access: administersRoute('chatbot:create') },
    schema: { tags, summary: 'Delete a chatbot with its conversations', params: schemas.ChatbotParams, response: responses(Type.Null()) },
    handler: async (request) => ok(await service.deleteChatbot(serviceContext(request), request.params.chatbot_id).then(() => null)),
  });

  app.get('/app/chatbots/:chatbot_id/conversations', {
    config: { access: reads('knowledge:search') },
    schema: { tags, summary: "The caller's conversations with a chatbot, latest first", params: schemas.ChatbotParams, querystring: schemas.PageQuery, response: responses(schemas.ConversationListOut) },
    handler: async (request) => ok(await conversations.listConversations(serviceContext(request), request.params.chatbot_id, request.query)),
  });

  app.get('/app/chatbots/:chatbot_id/conversations/:conversation_id', {
    config: { access: reads('knowledge:search') },
    schema: { tags, summary: 'One of the caller\'s conversations with its messages', params: schemas.ConversationParams, response: responses(schemas.ConversationOut) },
    handler: async (request) => ok(await conversations.getConversation(serviceContext(request), request.params.chatbot_id, request.params.conversation_id)),
  });

  app.delete('/app/chatbots/:chatbot_id/conversations/:conversation_id', {
    config: { access: writes('knowledge:search') },
    schema: { tags, summary: 'Delete one of the caller\'s conversations', params: schemas.ConversationParams, response: responses(Type.Null()) },
    handler: async (request) => ok(await conversations.deleteConversation(serviceContext(request), request.params.chatbot_id, request.params.conversation_id).then(() => null)),
  });
};
