import { EmbedderError } from '../../knowledge/embedder.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';

/**
 * Runs an embedding a request waits for (a search's query, a new base's vector size): an
 * embeddings service that fails answers error_code 0 with HTTP 503 (or 502 when it answered
 * something unusable), naming what went wrong, rather than an unexpected 500. The request was
 * sound; it may pass later.
 * @example const [vector] = await embeddingFor(() => embedder.embed([query]))
 */
export async function embeddingFor<T>(embed: () => Promise<T>): Promise<T> {
  try {
    return await embed();
  } catch (error) {
    if (error instanceof EmbedderError) throw new AppError(ErrorCode.Failed, error.transient ? 503 : 502, `the embeddings service failed: ${error.message}`);
    throw error;
  }
}

/**
 * Whether a job's failure is one that trying again cannot mend: a refusal of ours (an `AppError`:
 * a document that cannot be read, a setting missing) or an embeddings service refusing for good
 * (a wrong key, an unknown model).
 */
export function cannotBeMended(error: unknown): boolean {
  return error instanceof AppError || (error instanceof EmbedderError && !error.transient);
}
