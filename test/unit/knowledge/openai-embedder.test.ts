import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { EmbedderError, type Embedder } from '../../../src/knowledge/embedder.js';
import { HASHED_NGRAMS } from '../../../src/knowledge/embedders/hashed-ngrams.js';
import { defaultEmbedderSpec, embedderFor, resolveEmbedderSpec } from '../../../src/knowledge/embedders/registry.js';
import { AppError } from '../../../src/shared/app-error.js';
import { fakeEmbedding, startFakeModelServer, type FakeModelServer } from '../../helpers/fake-model-server.js';
import { freePort } from '../../helpers/processes.js';
import { rejectionOf } from '../../helpers/rejection.js';

/** The OpenAI-compatible embedder against a fake service on 127.0.0.1: requests, vectors, failures and their classification. */

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(() => fake.close());
afterEach(() => {
  fake.embeddingRequests.length = 0;
  fake.dimensions = 16;
});

function configWith(extra: Record<string, string> = {}) {
  return loadConfig({ EMBEDDINGS_URL: fake.url, EMBEDDINGS_MODEL: 'fake-embed', ...extra });
}

function embedderOf(extra: Record<string, string> = {}): Embedder {
  const config = configWith(extra);
  return embedderFor(defaultEmbedderSpec(config), config);
}

function length(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
}

describe('choosing the embedder', () => {
  it('gives new knowledge bases the built-in embedder when EMBEDDINGS_URL is unset', () => {
    const config = loadConfig({});
    expect(defaultEmbedderSpec(config)).toEqual(HASHED_NGRAMS);
    expect(embedderFor(HASHED_NGRAMS, config).spec).toEqual(HASHED_NGRAMS);
  });

  it('gives them the endpoint, its size not yet known, when EMBEDDINGS_URL is set', () => {
    expect(defaultEmbedderSpec(configWith())).toEqual({ kind: 'openai', model: 'fake-embed', dimensions: 0 });
  });

  it('refuses a stored openai spec when EMBEDDINGS_URL is unset, naming the setting (error_code 0, HTTP 503)', () => {
    let error: unknown;
    try {
      embedderFor({ kind: 'openai', model: 'nomic-embed-text', dimensions: 768 }, loadConfig({}));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 0, httpStatus: 503 });
    expect((error as AppError).message).toMatch(/EMBEDDINGS_URL is not set/);
    expect((error as AppError).message).toContain('nomic-embed-text');
  });

  it('refuses a built-in spec this server does not have', () => {
    expect(() => embedderFor({ kind: 'builtin', model: 'hashed-ngrams-v9', dimensions: 256 }, loadConfig({}))).toThrow(/unknown built-in embedder hashed-ngrams-v9/);
  });

  it("uses the stored spec's model, not EMBEDDINGS_MODEL, for an existing base", async () => {
    const embedder = embedderFor({ kind: 'openai', model: 'older-model', dimensions: 16 }, configWith());
    await embedder.embed(['x']);
    expect(fake.embeddingRequests[0]!.model).toBe('older-model');
  });
});

describe('embedding through the endpoint', () => {
  it('posts the texts with the model and key, and returns unit vectors in input order', async () => {
    const embedder = embedderOf({ EMBEDDINGS_API_KEY: 'sk-test' });
    const texts = ['refund policy', 'shipping times', 'refund policy for invoices'];
    const vectors = await embedder.embed(texts);
    expect(fake.embeddingRequests).toEqual([{ model: 'fake-embed', input: texts, authorization: 'Bearer sk-test' }]);
    expect(vectors).toHaveLength(3);
    for (const [i, vector] of vectors.entries()) {
      expect(length(vector)).toBeCloseTo(1, 5);
      // The fake answers in reverse order with indexes: each vector must be its own text's.
      const raw = fakeEmbedding(texts[i]!, 16);
      const norm = Math.sqrt(raw.reduce((sum, x) => sum + x * x, 0));
      expect([...vector].map((x) => Number(x.toFixed(5)))).toEqual(raw.map((x) => Number((x / norm).toFixed(5))));
    }
  });

  it('sends no Authorization header without a key', async () => {
    await embedderOf().embed(['a']);
    expect(fake.embeddingRequests[0]!.authorization).toBeNull();
  });

  it('learns the dimensions from the first answer', async () => {
    fake.dimensions = 24;
    const embedder = embedderOf();
    expect(embedder.spec.dimensions).toBe(0);
    const [vector] = await embedder.embed(['hello']);
    expect(vector).toHaveLength(24);
    expect(embedder.spec).toEqual({ kind: 'openai', model: 'fake-embed', dimensions: 24 });
  });

  it('resolves a new spec with one probe, and not again once known', async () => {
    fake.dimensions = 12;
    const embedder = embedderOf();
    expect(await resolveEmbedderSpec(embedder)).toEqual({ kind: 'openai', model: 'fake-embed', dimensions: 12 });
    expect(await resolveEmbedderSpec(embedder)).toEqual({ kind: 'openai', model: 'fake-embed', dimensions: 12 });
    expect(fake.embeddingRequests).toHaveLength(1);
  });

  it('splits inputs into batches of EMBEDDINGS_BATCH_SIZE, keeping the order', async () => {
    const embedder = embedderOf({ EMBEDDINGS_BATCH_SIZE: '2' });
    expect(embedder.maxBatch).toBe(2);
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const vectors = await embedder.embed(texts);
    expect(fake.embeddingRequests.map((r) => r.input)).toEqual([['one', 'two'], ['three', 'four'], ['five']]);
    const single = await embedderOf().embed(['four']);
    expect([...vectors[3]!]).toEqual([...single[0]!]);
  });

  it('does not send blank texts and gives them zero vectors of the model size', async () => {
    const vectors = await embedderOf().embed(['', 'words here', '   ']);
    expect(fake.embeddingRequests.map((r) => r.input)).toEqual([['words here']]);
    expect(vectors.map((v) => v.length)).toEqual([16, 16, 16]);
    expect([...vectors[0]!].every((x) => x === 0)).toBe(true);
    expect(length(vectors[1]!)).toBeCloseTo(1, 5);
  });

  it('probes the size when every text is blank and the size is not known yet', async () => {
    const vectors = await embedderOf().embed(['']);
    expect(fake.embeddingRequests).toHaveLength(1);
    expect(vectors[0]).toHaveLength(16);
  });

  it('refuses vectors of another size than the stored spec says', async () => {
    const embedder = embedderFor({ kind: 'openai', model: 'fake-embed', dimensions: 768 }, configWith());
    const error = await rejectionOf(embedder.embed(['a']), EmbedderError);
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/16-dimensional vectors, but this knowledge base's are 768-dimensional/);
  });
});

describe('failures', () => {
  it.each([429, 500, 502, 503])('%i is transient', async (status) => {
    fake.failNext({ status });
    const error = await rejectionOf(embedderOf().embed(['a']), EmbedderError);
    expect(error.transient).toBe(true);
    expect(error.message).toContain(`${fake.url}/embeddings answered ${status}: fake failure ${status}`);
  });

  it.each([400, 401, 404])('%i is not transient', async (status) => {
    fake.failNext({ status });
    const error = await rejectionOf(embedderOf().embed(['a']), EmbedderError);
    expect(error.transient).toBe(false);
    expect(error.message).toContain(`answered ${status}`);
  });

  it("reads Ollama's error shape and the Retry-After of a 429", async () => {
    fake.failNext({ status: 429, body: JSON.stringify({ error: 'server busy, please try again' }), headers: { 'retry-after': '7' } });
    const error = await rejectionOf(embedderOf().embed(['a']), EmbedderError);
    expect(error).toMatchObject({ transient: true, retryAfterMs: 7000 });
    expect(error.message).toContain('answered 429: server busy, please try again');
  });

  it('a closed connection is transient', async () => {
    fake.failNext({ drop: true });
    const error = await rejectionOf(embedderOf().embed(['a']), EmbedderError);
    expect(error.transient).toBe(true);
    expect(error.message).toContain('could not be reached');
  });

  it('no service listening is transient', async () => {
    const port = await freePort();
    const config = loadConfig({ EMBEDDINGS_URL: `http://127.0.0.1:${port}/v1`, EMBEDDINGS_MODEL: 'm' });
    const error = await rejectionOf(embedderFor(defaultEmbedderSpec(config), config).embed(['a']), EmbedderError);
    expect(error.transient).toBe(true);
    expect(error.message).toContain(`http://127.0.0.1:${port}/v1/embeddings could not be reached (ECONNREFUSED)`);
  });

  it('a port fetch refuses (the Fetch standard bad ports) is a setting to change, not transient', async () => {
    const config = loadConfig({ EMBEDDINGS_URL: 'http://127.0.0.1:6000/v1', EMBEDDINGS_MODEL: 'm' });
    const error = await rejectionOf(embedderFor(defaultEmbedderSpec(config), config).embed(['a']), EmbedderError);
    expect(error.transient).toBe(false);
    expect(error.message).toContain('uses a port that fetch refuses');
  });

  it('EMBEDDINGS_TIMEOUT_MS: a service that does not answer is a transient timeout', async () => {
    fake.failNext({ hang: true });
    const error = await rejectionOf(embedderOf({ EMBEDDINGS_TIMEOUT_MS: '200' }).embed(['a']), EmbedderError);
    expect(error.transient).toBe(true);
    expect(error.message).toContain('did not answer in time');
  });

  it.each([
    ['not JSON', '<html>bad gateway</html>', /answered something that is not JSON \(<html>bad gateway<\/html>\)/],
    ['no data list', '{"object":"list"}', /without a data list/],
    ['too few vectors', '{"data":[]}', /answered 0 vectors for 1 texts/],
    ['a vector that is not numbers', '{"data":[{"index":0,"embedding":["a"]}]}', /unreadable vector at index 0/],
    ['an index out of range', '{"data":[{"index":3,"embedding":[1,2]}]}', /unreadable vector at index 3/],
  ])('an answer with %s is not transient', async (_what, body, message) => {
    fake.failNext({ malformed: body });
    const error = await rejectionOf(embedderOf().embed(['a']), EmbedderError);
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(message);
  });
});
