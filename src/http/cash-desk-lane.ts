/**
 * The cash-desk lane: the calls a till or a customer's app waits on (endpoints marked
 * `cashDesk`: the checkout answers and recommendations) served straight from node:http
 * instead of through express. It uses the same endpoint declaration, JSON body parser (a
 * till's plain JSON read first without it: src/http/plain-json-body.ts), authentication,
 * answering pipeline (src/http/routes.ts), error mapping, request id, metrics and log line
 * as the express app, and skips only express's per-request machinery: its request and
 * response objects, the app's middleware stack, the router's walk past a few hundred
 * routes, `res.json`. On the checkout bench that machinery cost more than the answer
 * itself (accept-payment with its work replaced by a constant answered no faster than 80 %
 * of a bare express endpoint).
 *
 * A request takes the lane only in the form a till sends it: the endpoint's method and
 * exact path (its query string read by the app's own query parser), no X-Forwarded-For (so
 * the caller's address is the socket's, as express reads it then). Anything else goes to
 * express, which answers it as it answers every other call.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Endpoint } from './endpoint.js';
import { errorAnswer } from './error-handler.js';
import { basePath } from './interfaces.js';
import { JsonText } from './json-text.js';
import type { Observe } from './observe.js';
import { plainJsonBody, type BodyParser } from './plain-json-body.js';
import { parseQuery } from './query.js';
import { answerFor, type Answer, type Mounting } from './routes.js';

export interface LaneOptions {
  endpoints: Endpoint[];
  mounting: Mounting;
  observe: Observe;
  parseBody: BodyParser;
  log: Logger;
  bodyLimitBytes: number;
}

interface Lane {
  route: string;
  path: string;
  answer: Answer;
}

export function cashDeskLane(options: LaneOptions, fallback: RequestListener): RequestListener {
  const laneOptions = { ...options, parseBody: plainJsonBody(options.parseBody, options.bodyLimitBytes) };
  const lanes = new Map<string, Lane>();
  for (const endpoint of options.endpoints.filter((candidate) => candidate.cashDesk)) {
    if (endpoint.path.includes(':')) throw new Error(`The cash-desk lane serves exact paths only: ${endpoint.path}`);
    for (const iface of endpoint.interfaces) {
      const route = `${basePath(iface)}${endpoint.path}`;
      lanes.set(`${endpoint.method.toUpperCase()} ${route}`, { route, path: endpoint.path, answer: answerFor(endpoint, iface, options.mounting) });
    }
  }
  return (request, response) => {
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const lane = lanes.get(`${request.method} ${queryAt < 0 ? url : url.slice(0, queryAt)}`);
    if (!lane || request.headers['x-forwarded-for'] !== undefined) return fallback(request, response);
    serve(lane, request, response, queryAt < 0 ? '' : url.slice(queryAt + 1), laneOptions);
  };
}

function serve(lane: Lane, request: IncomingMessage & { body?: unknown }, response: ServerResponse, queryString: string, options: LaneOptions): void {
  const ip = request.socket.remoteAddress ?? '';
  const requestId = options.observe(request, response, ip, () => lane.route);
  const fail = (error: unknown) => {
    const sent = errorAnswer(error, options.log, options.bodyLimitBytes, { method: request.method ?? '', path: lane.route, requestId });
    send(response, sent.status, { error: sent.body }, sent.headers);
  };
  options.parseBody(request, response, (error) => {
    if (error) return fail(error);
    const idempotencyKey = request.headers['idempotency-key'];
    lane
      .answer({
        authorization: request.headers.authorization,
        idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
        ip,
        requestId,
        path: lane.path,
        rawQuery: queryString,
        params: {},
        query: parseQuery(queryString),
        body: request.body,
      })
      .then((answered) => send(response, answered.status, answered.body), fail);
  });
}

/** As express's `res.json` sends it (no ETag, as the app is set); an answer already in JSON text as it is. */
function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    response.writeHead(status, headers).end();
    return;
  }
  const text = body instanceof JsonText ? body.bytes() : JSON.stringify(body);
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) }).end(text);
}
