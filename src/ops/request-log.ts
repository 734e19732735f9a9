/** Request ids and one JSON log line per request, counted and timed in the HTTP metrics. */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Observe } from '../http/observe.js';
import { redactPath } from '../http/redact-path.js';
import type { HttpMetrics } from './http-metrics.js';

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
