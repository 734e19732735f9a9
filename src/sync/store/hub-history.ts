/**
 * A store's history reads asked of its hub (src/http/history-reads.ts): within the timeout,
 * the hub's answer unless it is a 404 (a record this store made and has not pushed yet), a
 * refusal of the caller (401, 403), of this store's reads past their share of the hub's time
 * (429, src/sync/hub/read-budget.ts) or a failure of the hub's; otherwise nothing, and the
 * store answers from its own data. Also the lookups a feature makes of the hub's facts (a cancelled
 * bill sold at another store).
 *
 * A read answers with this store's own writes: the hub's answer counts only what it was
 * pushed, so a read waits, within the timeout, for the agent to push what this store queued
 * before it (a bill sold a moment ago), as a login does (src/sync/store/hub-sessions.ts).
 * While the agent's rounds fail, or once the wait would pass the timeout, the store answers
 * from its own data, which holds them.
 */
import { apiPathOf, type HistoryRead, type HistoryReads } from '../../http/history-reads.js';
import type { StoredResponse } from '../../http/idempotency.js';
import type { HubClient } from './hub-client.js';
import type { QueuePushed } from './queue-pushed.js';

export class HubHistory implements HistoryReads {
  constructor(
    private readonly pushed: QueuePushed,
    private readonly client: HubClient,
    private readonly timeoutMs: number,
  ) {}

  async read(request: HistoryRead): Promise<StoredResponse | undefined> {
    const deadline = Date.now() + this.timeoutMs;
    if (!(await this.pushed.by(deadline))) return undefined;
    try {
      const answer = await this.client.history(apiPathOf(request), request.principal, Math.max(1, deadline - Date.now()));
      // 401 and 403: the hub does not vouch for the caller this store authenticated (a token
      // not pushed yet, a session this store made itself), so the store answers from its own data.
      // 429: the hub's API answers no read so; its sync routes refuse this store's reads past their share.
      if ([401, 403, 404, 429].includes(answer.status) || answer.status >= 500) return undefined;
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
