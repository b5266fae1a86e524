import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring download links: `…/files/{id}?expires={epoch seconds}&signature={hex}`, the
 * signature an HMAC-SHA256 of `id:expires` with the server's link key (kept in the database, the same
 * for every process). Expiry is rounded up to the next whole `ttl` step, so a link stays the same
 * for a while and clients can cache it.
 */
export class DownloadLinks {
  constructor(
    private readonly key: Buffer,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
  ) {}

  private signature(fileId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${fileId}:${expires}`).digest('hex');
  }

  /** The link to a file, valid from `now` (epoch ms) for at least the link lifetime. */
  linkFor(fileId: string, now: number): string {
    const step = this.ttlSeconds;
    const expires = (Math.floor(now / 1000 / step) + 2) * step;
    return `${this.publicUrl}/files/${encodeURIComponent(fileId)}?expires=${expires}&signature=${this.signature(fileId, expires)}`;
  }

  /** Whether a link's expiry and signature are good at `now` (epoch ms). */
  verify(fileId: string, expires: number, signature: string, now: number): boolean {
    if (!Number.isInteger(expires) || expires * 1000 < now || !/^[0-9a-f]{64}$/.test(signature)) return false;
    return timingSafeEqual(Buffer.from(this.signature(fileId, expires), 'hex'), Buffer.from(signature, 'hex'));
  }
}
