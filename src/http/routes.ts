/**
 * Mounts endpoint lists under both interfaces. A path an interface does not offer answers
 * 403 `interface_not_allowed_exception` there; a known path with another method 405; any
 * other path 404 — each through the one error handler.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { interfaceNotAllowed, methodNotAllowed, pathNotFound } from '../errors.js';
import type { Endpoint, RequestContext } from './endpoint.js';
import { basePath, INTERFACE_LABEL, INTERFACES, type Interface } from './interfaces.js';
import type { IdempotencyKeys, StoredResponse } from './idempotency.js';
import type { Principal } from './principal.js';
import { fromZodIssues } from './validation-errors.js';

export type Authenticate = (iface: Interface, endpoint: Endpoint, request: Request) => Promise<Principal>;

export interface Mounting {
  authenticate: Authenticate;
  idempotency: IdempotencyKeys;
}

export function mountEndpoints(app: express.Express, endpoints: Endpoint[], mounting: Mounting): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const endpoint of endpoints) {
    const methods = methodsByPath.get(endpoint.path) ?? new Set<string>();
    methods.add(endpoint.method.toUpperCase());
    methodsByPath.set(endpoint.path, methods);
  }
  for (const iface of INTERFACES) {
    const router = express.Router({ caseSensitive: true });
    for (const endpoint of endpoints) {
      const handler = endpoint.interfaces.includes(iface)
        ? handlerFor(endpoint, iface, mounting)
        : refuseInterface(endpoint, iface);
      router[endpoint.method](endpoint.path, handler);
    }
    for (const [path, methods] of methodsByPath) {
      router.all(path, (request) => {
        throw methodNotAllowed(request.method, [...methods]);
      });
    }
    router.use((request) => {
      throw pathNotFound(request.originalUrl.split('?')[0]!);
    });
    app.use(basePath(iface), router);
  }
}

function refuseInterface(endpoint: Endpoint, iface: Interface): RequestHandler {
  const resource = endpoint.path.split('/')[1] ?? endpoint.path;
  return () => {
    throw interfaceNotAllowed(resource, INTERFACE_LABEL[iface]);
  };
}

function handlerFor(endpoint: Endpoint, iface: Interface, { authenticate, idempotency }: Mounting): RequestHandler {
  const status = endpoint.status ?? 200;
  const route = `${basePath(iface)}${endpoint.path}`;
  return async (request: Request, response: Response) => {
    response.locals.route = route;
    const principal = await authenticate(iface, endpoint, request);
    const execute = async (): Promise<StoredResponse> => {
      const input = {
        params: parse(endpoint.params, request.params, 'path'),
        query: parse(endpoint.query, request.query, ''),
        body: parse(endpoint.body, request.body ?? {}, '', 'body'),
      };
      const context: RequestContext = {
        iface,
        principal,
        requestId: String(response.locals.requestId),
        ip: request.ip ?? '',
      };
      const data = await endpoint.handle(input as never, context);
      return { status, body: status === 204 ? undefined : { data } };
    };
    // Calls that hand out credentials (logins, token creation) are not kept: a stored
    // answer would hold a bearer token or token id in clear.
    const keeps = endpoint.method !== 'get' && (endpoint.access ?? 'client') === 'client';
    const key = keeps ? request.get('idempotency-key') : undefined;
    const answer =
      key === undefined
        ? await execute()
        : await idempotency.run(`${iface}:${principalScope(principal)}`, key, [endpoint.method, request.path, request.body], execute);
    if (answer.body === undefined) response.status(answer.status).end();
    else response.status(answer.status).json(answer.body);
  };
}

function principalScope(principal: Principal): string {
  switch (principal.kind) {
    case 'user':
      return `user:${principal.userId}`;
    case 'token':
      return `token:${principal.tokenId}`;
    case 'api-user':
      return `api-user:${principal.apiUserId}`;
    case 'anonymous':
      return 'anonymous';
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, prefix: string, root = prefix): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodIssues(result.error.issues, value, prefix, root);
  return result.data;
}
