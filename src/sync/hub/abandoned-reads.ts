/**
 * A store's history read that the store gave up on is not begun. The store waits
 * `sync.history_timeout_ms` for the hub (src/sync/store/hub-history.ts) and then closes its
 * connection and answers from its own data. A read is synchronous SQLite: once begun it runs to
 * its end, which the list bounds keep short (src/db/list-query.ts), so what the hub can spare is
 * the reads it has not begun. When the hub was busy past the store's timeout, the request and
 * the close wait for it together; the loop reads the close at its next poll for I/O after the
 * request, so the read begins after that poll, and not at all once the connection is closed.
 */
import type { Request } from 'express';

export function unlessAbandoned(request: Request, begin: () => void): void {
  setImmediate(() =>
    setImmediate(() => {
      if (request.socket.destroyed || !request.socket.writable) return;
      begin();
    }),
  );
}
