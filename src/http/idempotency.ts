/**
 * `Idempotency-Key` on write calls (DESIGN §5): a replay with the same key and body gets
 * the stored response, the same key with another body 422. Keys are scoped to the caller
 * and kept for `idempotency.retention_days` (longer than any supported offline period).
 * A request whose key is still being answered waits for that answer instead of running
 * twice. The response is stored right after the write's own transaction; a crash between
 * the two is covered by each write's natural key (a purchase's store and bill id).
 */
import { createHash } from 'node:crypto';
import type { Statement } from '../db/engine.js';
import type { Clock } from '../core/clock.js';
import { dbColumns } from '../db/column-codecs.js';
import type { Db } from '../db/open.js';
import { AppError, idempotencyMismatch, invalidParam, requestJson } from '../core/errors.js';

export interface StoredResponse {
  status: number;
  body: unknown;
  /** For a history read, who answered it (src/http/history-reads.ts); never stored. */
  source?: 'hub' | 'local';
  /** Answered again from the answer an Idempotency-Key kept; never stored. */
  replayed?: true;
}

const PURGE_EVERY = 1000;

function fingerprintOf(request: unknown): string {
  return createHash('sha256').update(requestJson(request)).digest('hex');
}

export class IdempotencyKeys {
  private readonly inFlight = new Map<string, Promise<StoredResponse>>();
  private readonly find: Statement<[string, string], { fingerprint: string; status: number; response: string | null }>;
  private readonly save: Statement;
  private readonly purge: Statement;
  private saved = 0;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly retentionMs: number,
  ) {
    this.find = db.prepare('SELECT fingerprint, status, response FROM idempotency_keys WHERE scope = ? AND key = ?');
    this.save = db.prepare(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, response = excluded.response, created_at = excluded.created_at`,
    );
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  }

  async run(scope: string, key: string, request: unknown, execute: () => Promise<StoredResponse>): Promise<StoredResponse> {
    if (key.length === 0 || key.length > 255) throw invalidParam('Idempotency-Key', 'invalid_value_format', key, 'Send 1 to 255 characters');
    const fingerprint = fingerprintOf(request);
    const slot = `${scope}\u0000${key}`;
    const pending = this.inFlight.get(slot);
    if (pending) {
      await pending.catch(() => undefined);
      return this.run(scope, key, request, execute);
    }
    const stored = this.find.get(scope, key);
    if (stored) {
      if (stored.fingerprint !== fingerprint) throw idempotencyMismatch();
      return {
        status: stored.status,
        body: stored.response === null ? undefined : dbColumns['idempotency_keys.response'](stored.response),
        replayed: true,
      };
    }
    const answer = this.answer(execute);
    this.inFlight.set(slot, answer);
    try {
      const response = await answer;
      // Server faults are not kept: the client should be able to try the same key again.
      if (response.status < 500) this.keep(scope, key, fingerprint, response);
      return response;
    } finally {
      this.inFlight.delete(slot);
    }
  }

  /**
   * The call's answer, a refusal among them. A refusal with headers (a 429's Retry-After) is not
   * kept: it tells the client when to send the same request again, with the same key, and it
   * answers with its headers, which a kept answer does not hold.
   */
  private async answer(execute: () => Promise<StoredResponse>): Promise<StoredResponse> {
    try {
      return await execute();
    } catch (error) {
      if (error instanceof AppError && error.status < 500 && Object.keys(error.headers).length === 0) {
        return { status: error.status, body: { error: error.body } };
      }
      throw error;
    }
  }

  private keep(scope: string, key: string, fingerprint: string, response: StoredResponse): void {
    const now = this.clock();
    this.save.run(
      scope,
      key,
      fingerprint,
      response.status,
      response.body === undefined ? null : JSON.stringify(response.body),
      new Date(now).toISOString(),
    );
    this.saved += 1;
    if (this.saved % PURGE_EVERY === 0) this.purge.run(new Date(now - this.retentionMs).toISOString());
  }
}
