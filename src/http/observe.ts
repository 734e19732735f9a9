/** What the HTTP layer calls to observe a request; src/ops/request-log.ts logs, counts and times it. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Starts watching one request: names it (the caller's X-Request-Id or a fresh one, sent
 * back in the answer), and when it is answered counts, times and logs it under the route
 * `route()` names then. Returns the request id. Served by both the express app and the
 * cash-desk lane (src/http/cash-desk-lane.ts), so their requests look the same in logs and metrics.
 */
export type Observe = (request: IncomingMessage, response: ServerResponse, ip: string, route: () => string) => string;
