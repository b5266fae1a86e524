import { Type } from '@sinclair/typebox';

/** Wire schemas of chatbots; see docs/api.md "Chatbots". */

export const ChatbotParams = Type.Object({ chatbot_id: Type.String() });
export const ConversationParams = Type.Object({ chatbot_id: Type.String(), conversation_id: Type.String() });

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Prompt = Type.String({ maxLength: 20_000, description: 'The system prompt: who the chatbot is and how it answers' });
const PresetQuestions = Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20, description: 'Questions offered to start with; the whole list is replaced on update' });
const KnowledgeIds = Type.Array(Type.String(), { maxItems: 20, description: 'The knowledge bases it answers from' });

const Settings = {
  prompt: Type.Optional(Prompt),
  welcomeText: Type.Optional(Type.String({ maxLength: 2_000 })),
  presetQuestions: Type.Optional(PresetQuestions),
  knowledgeIds: Type.Optional(KnowledgeIds),
  icon: Type.Optional(Type.String({ maxLength: 500 })),
  iconColor: Type.Optional(Type.String({ maxLength: 32 })),
  remark: Type.Optional(Type.String({ maxLength: 2_000 })),
};

export const CreateChatbotBody = Type.Object({
  name: Name,
  sectionId: Type.Optional(Type.String({ description: 'The section it is placed in (default: the first)' })),
  ...Settings,
});

export const UpdateChatbotBody = Type.Object({
  name: Type.Optional(Name),
  sectionId: Type.Optional(Type.String({ description: 'Moves it to the end of this section' })),
  ...Settings,
});

export const ChatbotOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sectionId: Type.String(),
  prompt: Type.String(),
  welcomeText: Type.String(),
  presetQuestions: Type.Array(Type.String()),
  knowledgeIds: Type.Array(Type.String()),
  icon: Type.String(),
  iconColor: Type.String(),
  remark: Type.String(),
  _createdAt: Type.String(),
  _updatedAt: Type.String(),
});

export const ChatbotListOut = Type.Object({ chatbots: Type.Array(ChatbotOut) });

export const PageQuery = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

const Citation = Type.Object({ index: Type.Integer(), content: Type.String(), score: Type.Number(), source: Type.Record(Type.String(), Type.Unknown()) });

export const MessageOut = Type.Object({
  id: Type.String(),
  role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String(),
  citations: Type.Array(Citation),
  _createdAt: Type.String(),
});

export const ConversationSummary = Type.Object({ id: Type.String(), title: Type.String(), messageCount: Type.Integer(), _createdAt: Type.String(), _updatedAt: Type.String() });

export const ConversationListOut = Type.Object({ conversations: Type.Array(ConversationSummary), total: Type.Integer() });

export const ConversationOut = Type.Object({ ...ConversationSummary.properties, chatbotId: Type.String(), messages: Type.Array(MessageOut) });

export const MessageBody = Type.Object({
  conversationId: Type.Optional(Type.String({ description: 'A conversation of the caller with this chatbot; a new one when absent' })),
  message: Type.String({ minLength: 1, maxLength: 8_000, description: 'The question' }),
  stream: Type.Optional(Type.Boolean({ description: 'Answer as Server-Sent Events (conversation, delta…, done)' })),
  topK: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'How many passages to ground the answer in (default 5)' })),
});

export const AnsweredOut = Type.Object({ conversationId: Type.String(), messageId: Type.String(), answer: Type.String(), citations: Type.Array(Citation) });
