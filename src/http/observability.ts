/** Request ids, one JSON log line per request, and the Prometheus metrics behind /metrics. */
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
}

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'loyaltyd_' });
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

export function observeRequests(log: Logger, metrics: HttpMetrics): RequestHandler {
  // A random prefix per process and a counter: unique in the logs without drawing random
  // bytes on every request, which cost a cash-desk call measurably (checkout bench).
  const prefix = randomBytes(4).toString('hex');
  let served = 0;
  return (request, response, next) => {
    const started = process.hrtime.bigint();
    served += 1;
    const requestId = request.get('x-request-id') ?? `${prefix}${served.toString(16).padStart(8, '0')}`;
    response.locals.requestId = requestId;
    response.set('X-Request-Id', requestId);
    response.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The matched route pattern, not the raw path, keeps label cardinality bounded. API
      // handlers name theirs: express has unwound `baseUrl` by the time an error answers.
      const route = typeof response.locals.route === 'string' ? response.locals.route : request.route ? `${request.baseUrl}${String(request.route.path)}` : 'unmatched';
      metrics.requests.inc({ method: request.method, route, status: String(response.statusCode) });
      metrics.duration.observe({ method: request.method, route }, seconds);
      log.info({
        requestId,
        method: request.method,
        path: redactTokens(request.originalUrl.split('?')[0]!),
        status: response.statusCode,
        ms: Math.round(seconds * 1e6) / 1e3,
        ip: request.ip,
      });
    });
    next();
  };
}

/** A customer-interface token id is a credential: it never reaches the logs. */
export function redactTokens(path: string): string {
  return path.replace(/\/tokens\/[^/]+/, '/tokens/[token]');
}
