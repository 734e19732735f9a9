/** Request ids, one JSON log line per request, and the Prometheus metrics behind /metrics. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { passwordChecks } from '../auth/passwords.js';
import { redactPath } from '../http/redact-path.js';

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
}

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'loyaltyd_' });
  let reportedChecks = 0;
  new Counter({
    name: 'loyaltyd_password_checks_total',
    help: 'Password checks run (one scrypt each); a jump is someone guessing',
    registers: [registry],
    collect() {
      const checks = passwordChecks();
      this.inc(checks - reportedChecks);
      reportedChecks = checks;
    },
  });
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
  };
}

/**
 * Starts watching one request: names it (the caller's X-Request-Id or a fresh one, sent
 * back in the answer), and when it is answered counts, times and logs it under the route
 * `route()` names then. Returns the request id. Served by both the express app and the
 * cash-desk lane (src/http/cash-desk-lane.ts), so their requests look the same in logs and metrics.
 */
export type Observe = (request: IncomingMessage, response: ServerResponse, ip: string, route: () => string) => string;

export function createObserver(log: Logger, metrics: HttpMetrics): Observe {
  // A random prefix per process and a counter: unique in the logs without drawing random
  // bytes on every request, which cost a cash-desk call measurably (checkout bench).
  const prefix = randomBytes(4).toString('hex');
  let served = 0;
  return (request, response, ip, route) => {
    const started = process.hrtime.bigint();
    // Read now: a mounted router strips its mount path from the url while it routes.
    const url = request.url ?? '';
    served += 1;
    const header = request.headers['x-request-id'];
    const requestId = typeof header === 'string' ? header : `${prefix}${served.toString(16).padStart(8, '0')}`;
    response.setHeader('X-Request-Id', requestId);
    response.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { method: request.method ?? '', route: route() };
      metrics.requests.inc({ ...labels, status: String(response.statusCode) });
      metrics.duration.observe(labels, seconds);
      // The line is built only when it is written: a daemon at `warn` spends nothing on it.
      if (!log.isLevelEnabled('info')) return;
      log.info({
        requestId,
        method: request.method,
        path: redactPath(url.split('?')[0]!),
        status: response.statusCode,
        ms: Math.round(seconds * 1e6) / 1e3,
        ip,
      });
    });
    return requestId;
  };
}

/** The express side: every request the app serves is observed, under its matched route. */
export function observeRequests(observe: Observe): RequestHandler {
  return (request, response, next) => {
    // The matched route pattern, not the raw path, keeps label cardinality bounded. API
    // handlers name theirs: express has unwound `baseUrl` by the time an error answers.
    const route = () =>
      typeof response.locals.route === 'string'
        ? response.locals.route
        : request.route
          ? `${request.baseUrl}${String(request.route.path)}`
          : 'unmatched';
    response.locals.requestId = observe(request, response, request.ip ?? '', route);
    next();
  };
}

/** A store's own sync figures; null where unknown (no hub, never pulled). */
export interface StoreSyncFigures {
  outbox_pending: number;
  outbox_oldest_age_seconds: number | null;
  feed_lag_rows: number | null;
  feed_lag_seconds: number | null;
  conflicts: number;
  rejected_commands: number;
  seconds_since_success: number | null;
}

/** A hub's figures, per store as the hub heard them (src/sync/hub/fleet-status.ts). */
export interface HubSyncFigures {
  conflicts: number;
  stores: {
    name: string;
    seconds_since_contact: number | null;
    silent: boolean;
    applied_commands: number;
    rejected_commands: number;
    outbox_pending: number | null;
    feed_lag_rows: number | null;
  }[];
  /** The customer states' horizon and the states it has not passed yet (src/sync/hub/settling-status.ts). */
  horizon_age_seconds: number | null;
  unsettled_states: number | null;
}

export type SyncFigures = ({ mode: 'store' } & StoreSyncFigures) | ({ mode: 'hub' } & HubSyncFigures);

/**
 * The sync gauges of /metrics, read from the node when Prometheus scrapes (the Grafana
 * dashboard in config/grafana-dashboard.json uses them). A store shows its own outbox, feed
 * lag, conflicts, rejected commands and seconds since its last successful round; a hub shows
 * its conflicts, the age of its customer states' horizon and the states left to settle, and,
 * per store, the seconds since its last contact, the commands applied and rejected since the
 * hub started and the outbox depth and feed lag it last reported.
 */
export function registerSyncMetrics(registry: Registry, mode: SyncFigures['mode'], read: () => SyncFigures): void {
  // One read serves every sync metric of a scrape: prom-client starts every metric's collect
  // in one synchronous pass, and the figures are dropped once it is over.
  let figures: SyncFigures | undefined;
  const current = (): SyncFigures => {
    if (!figures) {
      figures = read();
      queueMicrotask(() => {
        figures = undefined;
      });
    }
    return figures;
  };
  const registers = [registry];
  const gauge = (name: string, help: string, value: (figures: SyncFigures) => number | null | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const measured = value(current());
        if (measured === null || measured === undefined) this.reset();
        else this.set(measured);
      },
    });
  gauge('loyaltyd_sync_conflicts', 'Conflicts listed at this node (sync conflicts)', (figures) => figures.conflicts);
  if (mode === 'store') {
    const store =
      <K extends keyof StoreSyncFigures>(key: K) =>
      (figures: SyncFigures) =>
        figures.mode === 'store' ? figures[key] : undefined;
    gauge('loyaltyd_sync_outbox_pending', "Commands in the store's outbox not yet acknowledged by the hub", store('outbox_pending'));
    gauge('loyaltyd_sync_outbox_oldest_age_seconds', "Age of the oldest pending command in the store's outbox; 0 when it is empty", (figures) =>
      figures.mode === 'store' ? (figures.outbox_oldest_age_seconds ?? 0) : undefined,
    );
    gauge('loyaltyd_sync_feed_lag_rows', "Changes of the hub's feed the store has not pulled yet, as of its last pull", store('feed_lag_rows'));
    gauge('loyaltyd_sync_feed_lag_seconds', "How far behind the hub's feed the store is, in seconds", store('feed_lag_seconds'));
    gauge('loyaltyd_sync_seconds_since_success', "Seconds since the store's last successful sync round", store('seconds_since_success'));
    gauge('loyaltyd_sync_rejected_commands', 'Commands of this store the hub rejected, since its database was created', store('rejected_commands'));
    return;
  }
  gauge('loyaltyd_sync_silent_stores', 'Stores silent for longer than the offline age', (figures) =>
    figures.mode === 'hub' ? figures.stores.filter((one) => one.silent).length : undefined,
  );
  gauge(
    'loyaltyd_sync_horizon_age_seconds',
    "Age of the customer states' horizon: how long the store holding it back has not pushed (at most the offline age)",
    (figures) => (figures.mode === 'hub' ? figures.horizon_age_seconds : undefined),
  );
  gauge(
    'loyaltyd_sync_unsettled_states',
    'Customer states with facts past their horizon, which the hub publishes whole with each new fact',
    (figures) => (figures.mode === 'hub' ? figures.unsettled_states : undefined),
  );
  const perStore = (name: string, help: string, value: (one: HubSyncFigures['stores'][number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['store'],
      registers,
      collect() {
        this.reset();
        const figures = current();
        if (figures.mode !== 'hub') return;
        for (const one of figures.stores) {
          const measured = value(one);
          if (measured !== null) this.set({ store: one.name }, measured);
        }
      },
    });
  perStore('loyaltyd_sync_store_seconds_since_contact', 'Seconds since the store last called the hub', (one) => one.seconds_since_contact);
  perStore('loyaltyd_sync_store_outbox_pending', "The store's outbox depth as it last reported it", (one) => one.outbox_pending);
  perStore('loyaltyd_sync_store_feed_lag_rows', "The store's feed lag in rows as it last reported it", (one) => one.feed_lag_rows);
  const storeCounter = (name: string, help: string, value: (one: HubSyncFigures['stores'][number]) => number) => {
    const reported = new Map<string, number>();
    return new Counter({
      name,
      help,
      labelNames: ['store'],
      registers,
      collect() {
        const figures = current();
        if (figures.mode !== 'hub') return;
        for (const one of figures.stores) {
          const total = value(one);
          const delta = total - (reported.get(one.name) ?? 0);
          // Zero too, so that a store is listed before its first command.
          if (delta >= 0) this.inc({ store: one.name }, delta);
          reported.set(one.name, total);
        }
      },
    });
  };
  storeCounter(
    'loyaltyd_sync_store_applied_commands_total',
    'Commands of the store the hub applied, since the hub started',
    (one) => one.applied_commands,
  );
  storeCounter(
    'loyaltyd_sync_store_rejected_commands_total',
    'Commands of the store the hub rejected, since the hub started',
    (one) => one.rejected_commands,
  );
}
