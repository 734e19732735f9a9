/** Request ids, one JSON log line per request, and the Prometheus metrics behind /metrics. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { passwordChecks } from '../auth/passwords.js';

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
        path: redactTokens((request.url ?? '').split('?')[0]!),
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
      typeof response.locals.route === 'string' ? response.locals.route : request.route ? `${request.baseUrl}${String(request.route.path)}` : 'unmatched';
    response.locals.requestId = observe(request, response, request.ip ?? '', route);
    next();
  };
}

/** A customer-interface token id is a credential: it never reaches the logs. */
export function redactTokens(path: string): string {
  return path.replace(/\/tokens\/[^/]+/, '/tokens/[token]');
}
