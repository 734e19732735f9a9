/**
 * The HTTP metrics behind /metrics: requests by route and status, their duration, the
 * process's defaults, its password checks and the flushes of its write-ahead log (one per
 * group of writes answered together, src/db/durability.ts).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { PASSWORD_CHECKS_CHANNEL } from '../auth/passwords.js';

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
  /** Stops listening to the process's password checks. */
  close(): void;
}

export function createHttpMetrics(flushes: () => number): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'loyaltyd_' });
  let flushesSeen = 0;
  new Counter({
    name: 'loyaltyd_wal_flushes_total',
    help: 'Flushes of the write-ahead log; the writes answered per flush are the requests over this',
    registers: [registry],
    collect() {
      const now = flushes();
      this.inc(now - flushesSeen);
      flushesSeen = now;
    },
  });
  const passwordChecks = new Counter({
    name: 'loyaltyd_password_checks_total',
    help: 'Password checks run (one scrypt each); a jump is someone guessing',
    registers: [registry],
  });
  const countCheck = () => passwordChecks.inc();
  subscribe(PASSWORD_CHECKS_CHANNEL, countCheck);
  return {
    registry,
    requests: new Counter({
      name: 'loyaltyd_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'loyaltyd_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    close: () => unsubscribe(PASSWORD_CHECKS_CHANNEL, countCheck),
  };
}
