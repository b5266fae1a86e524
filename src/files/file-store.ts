import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * Where the bytes of attached files are kept, by key. The local disk store is the one there is; an
 * S3-compatible store implements the same three calls.
 */
export interface FileStore {
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes of a key, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes a key; removing one that is not there is not an error. */
  remove(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** Files under a directory, one file per key (`app/ab/abcdef…`), written whole or not at all (to a temporary name, then renamed). */
export class LocalDiskStore implements FileStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a file store key: ${key}`);
    return join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${randomUUID()}.part`;
    await writeFile(partial, bytes);
    await rename(partial, path);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
