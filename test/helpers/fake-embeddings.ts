import { afterAll, beforeAll } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';

/**
 * API tests on an embeddings service: starts a fake OpenAI-compatible one before the file's tests
 * (vectors of `dimensions`), points `env` at it (EMBEDDINGS_URL, EMBEDDINGS_MODEL `fake-embed`)
 * before the harness reads it, and closes it after.
 * @example const fake = useFakeEmbeddings(env, 24); … fake.service.embeddingRequests
 */
export function useFakeEmbeddings(env: Record<string, string>, dimensions: number): { readonly service: FakeModelServer } {
  const holder = {} as { service: FakeModelServer };
  beforeAll(async () => {
    holder.service = await startFakeModelServer();
    holder.service.dimensions = dimensions;
    env.EMBEDDINGS_URL = holder.service.url;
    env.EMBEDDINGS_MODEL = 'fake-embed';
  });
  afterAll(() => holder.service?.close());
  return holder;
}
