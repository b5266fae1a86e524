import { Type } from '@sinclair/typebox';

/** Wire schemas of the knowledge base endpoints (docs/api.md, "Knowledge bases"). */

export const KnowledgeParams = Type.Object({ knowledge_id: Type.String() });

const EmbedderIn = Type.Unknown({
  description:
    'The embedder: "builtin" (hashed word and character n-grams, no download), "openai-compatible" (the service at EMBEDDINGS_URL with EMBEDDINGS_MODEL), or an object {kind: "builtin" | "openai-compatible", model?: string, dimensions?: integer} (the shape GET shows; "openai" is taken for "openai-compatible"). Default on create: the server’s (the service when EMBEDDINGS_URL is set). On update, another embedder than the base’s re-embeds it in the background (`reembedding` shows the progress); searches use the old vectors until it is done.',
});

const SourceIn = Type.Object(
  {
    type: Type.Optional(Type.String({ description: '"worksheet" (the default; documents are added to a base separately)' })),
    worksheetId: Type.String({ description: 'The worksheet whose records are indexed, by id or alias' }),
    fieldIds: Type.Array(Type.String(), { description: 'The fields (ids or aliases) each record passage is built from, in this order' }),
  },
  { additionalProperties: false },
);

export const CreateBaseBody = Type.Object(
  {
    name: Type.String({ description: 'At most 100 characters' }),
    description: Type.Optional(Type.String({ description: 'At most 2000 characters' })),
    sources: Type.Optional(Type.Array(SourceIn, { description: 'Worksheets to index, at most 20; their records are indexed in the background' })),
    embedder: Type.Optional(EmbedderIn),
  },
  { additionalProperties: false },
);

export const UpdateBaseBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    sources: Type.Optional(Type.Array(SourceIn, { description: 'The whole list: kept worksheets with the same fields stay indexed, changed ones are indexed again, left-out ones lose their passages' })),
    embedder: Type.Optional(EmbedderIn),
  },
  { additionalProperties: false },
);

export const ListBody = Type.Object(
  {
    pageIndex: Type.Optional(Type.Integer({ description: 'From 1 (default 1)' })),
    pageSize: Type.Optional(Type.Integer({ description: '1–100 (default 20)' })),
    keyword: Type.Optional(Type.String({ description: 'Keeps the bases whose name contains it (case-insensitive)' })),
  },
  { additionalProperties: false },
);

export const SearchBody = Type.Object(
  {
    knowledgeIds: Type.Optional(Type.Array(Type.String(), { description: 'The bases to search (at most 20)' })),
    knowledgeId: Type.Optional(Type.String({ description: 'One base to search (with or instead of knowledgeIds)' })),
    query: Type.String({ description: 'The question or words to search for (at most 2000 characters)' }),
    topK: Type.Optional(Type.Integer({ description: 'How many passages, 1–100 (default 5)' })),
    scoreThreshold: Type.Optional(Type.Number({ description: 'Leaves out passages scoring below it (scores per mode: docs/api.md)' })),
    mode: Type.Optional(Type.String({ description: 'hybrid (default): full text and vectors fused; vector; keyword' })),
    filter: Type.Optional(
      Type.Object(
        {
          worksheetId: Type.String({ description: 'The worksheet whose record passages the filter narrows (only they are returned)' }),
          tree: Type.Optional(Type.Unknown({ description: 'A filter as `POST …/rows/list` takes it in `filter`' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const EmbedderOut = Type.Object({ kind: Type.String({ description: 'builtin or openai (an OpenAI-compatible service)' }), model: Type.String(), dimensions: Type.Integer() });

const SourceOut = Type.Object({
  type: Type.Literal('worksheet'),
  worksheetId: Type.String(),
  fieldIds: Type.Array(Type.String()),
  status: Type.String({ description: 'queued, indexing, ready or failed' }),
  progress: Type.Integer({ description: 'Records indexed so far' }),
  total: Type.Integer({ description: 'Records to index' }),
  error: Type.Optional(Type.String()),
});

export const BaseOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  sources: Type.Array(SourceOut),
  documentCount: Type.Integer(),
  chunkCount: Type.Integer({ description: 'Passages searched' }),
  status: Type.String({ description: 'ready, indexing (a source or document is being indexed), reembedding (only its re-embedding runs) or failed' }),
  error: Type.Optional(Type.String()),
  embedder: EmbedderOut,
  reembedding: Type.Optional(
    Type.Object(
      {
        embedder: EmbedderOut,
        progress: Type.Integer({ description: 'Passages embedded with the new embedder so far' }),
        total: Type.Integer({ description: 'Passages to embed' }),
      },
      { description: 'While the base is re-embedded with another embedder: which, and how far. Searches use `embedder` until it is done' },
    ),
  ),
  _createdAt: Type.String(),
  _updatedAt: Type.String(),
});

export const ListOut = Type.Object({ knowledgeBases: Type.Array(BaseOut), total: Type.Integer() });

export const CreatedOut = Type.Object({ id: Type.String() });

const ResultSourceOut = Type.Object({
  type: Type.String({ description: 'record or document' }),
  knowledgeId: Type.String(),
  worksheetId: Type.Optional(Type.String()),
  rowId: Type.Optional(Type.String()),
  fieldIds: Type.Optional(Type.Array(Type.String())),
  documentId: Type.Optional(Type.String()),
  title: Type.String(),
  chunkIndex: Type.Integer(),
});

export const SearchOut = Type.Object({
  results: Type.Array(Type.Object({ content: Type.String(), score: Type.Number(), source: ResultSourceOut })),
});

export const DocumentParams = Type.Object({ knowledge_id: Type.String(), document_id: Type.String() });

export const AddDocumentBody = Type.Object(
  {
    url: Type.Optional(Type.String({ description: 'An http(s) address to fetch the document from, by the rules attachments are fetched by' })),
    text: Type.Optional(Type.String({ description: 'The document itself (with title); one of url and text' })),
    title: Type.Optional(Type.String({ description: 'At most 300 characters; required with text; else the document’s own title or its file name' })),
    mediaType: Type.Optional(Type.String({ description: 'With text: text/plain (the default), text/markdown or text/html' })),
  },
  { additionalProperties: false },
);

/**
 * The upload form, for the OpenAPI document. The route reads the parts itself (`document-upload.ts`),
 * so nothing here is enforced by the schema: `file` is required all the same.
 */
const UploadDocumentForm = Type.Object({
  file: Type.Optional(
    Type.String({
      format: 'binary',
      description: 'Required: the document, text, Markdown, HTML or PDF, at most KNOWLEDGE_DOCUMENT_MAX_SIZE bytes (default 20mb). Its media type is the part’s Content-Type, else its file name’s extension, else its bytes',
    }),
  ),
  title: Type.Optional(Type.String({ description: 'At most 300 characters; else the document’s own title or its file name' })),
});

/** `POST …/documents` takes JSON (a URL or text) or a multipart/form-data upload. */
export const AddDocumentBodies = {
  content: {
    'application/json': { schema: AddDocumentBody },
    'multipart/form-data': { schema: UploadDocumentForm },
  },
};

export const AddedDocumentOut = Type.Object({ documentId: Type.String(), status: Type.String() });

export const DocumentsOut = Type.Object({
  documents: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      mediaType: Type.String(),
      url: Type.Optional(Type.String()),
      byteSize: Type.Integer(),
      status: Type.String({ description: 'queued, ingesting, ready or failed' }),
      progress: Type.Integer({ description: 'Passages stored so far, of chunkTotal' }),
      chunkTotal: Type.Integer(),
      error: Type.Optional(Type.String()),
      _createdAt: Type.String(),
    }),
  ),
});
