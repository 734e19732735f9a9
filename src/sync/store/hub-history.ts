/**
 * A store's history reads asked of its hub (src/http/history-reads.ts): within the timeout,
 * the hub's answer unless it is a 404 (a record this store made and has not pushed yet), a
 * refusal of the caller (401, 403) or a failure of the hub's; otherwise nothing, and the store
 * answers from its own data. Also the lookups a feature makes of the hub's facts (a cancelled
 * bill sold at another store).
 */
import type { HistoryRead, HistoryReads } from '../../http/history-reads.js';
import type { StoredResponse } from '../../http/idempotency.js';
import { basePath } from '../../http/interfaces.js';
import type { HubClient } from './hub-client.js';

export class HubHistory implements HistoryReads {
  constructor(
    private readonly client: HubClient,
    private readonly timeoutMs: number,
  ) {}

  async read({ iface, path, rawQuery, principal }: HistoryRead): Promise<StoredResponse | undefined> {
    try {
      const answer = await this.client.history(`${basePath(iface)}${path}${rawQuery ? `?${rawQuery}` : ''}`, principal, this.timeoutMs);
      // 401 and 403: the hub does not vouch for the caller this store authenticated (a token
      // not pushed yet, a session this store made itself), so the store answers from its own data.
      if (answer.status === 401 || answer.status === 403 || answer.status === 404 || answer.status >= 500) return undefined;
      return { status: answer.status, body: answer.body, source: 'hub' };
    } catch {
      return undefined;
    }
  }

  /** A GET of the hub's sync API within the timeout; 'unreachable' when it does not answer. */
  async lookup(path: string): Promise<{ status: number; body: unknown } | 'unreachable'> {
    try {
      return await this.client.lookup(path, this.timeoutMs);
    } catch {
      return 'unreachable';
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
