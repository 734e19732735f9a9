/**
 * A route outside the two interfaces (the operations pages, the API document), declared like
 * an endpoint: its entry in the API document (src/http/openapi.ts) and the express handlers
 * that serve it, in one object, so that what is served and what is documented cannot drift.
 */
import type { RequestHandler, Router } from 'express';
import type { PlainRoute } from './openapi.js';

export interface PlainEndpoint extends PlainRoute {
  handlers: RequestHandler[];
}

export function mountPlainEndpoints(router: Router, endpoints: readonly PlainEndpoint[]): void {
  for (const { method, path, handlers } of endpoints) router[method](path, ...handlers);
}

/** The document entries of declared routes. */
export function documented(endpoints: readonly PlainEndpoint[]): PlainRoute[] {
  return endpoints.map(({ handlers: _handlers, ...route }) => route);
}
