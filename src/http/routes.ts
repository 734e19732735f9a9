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
import type { Principal } from './principal.js';
import { fromZodIssues } from './validation-errors.js';

export type Authenticate = (iface: Interface, endpoint: Endpoint, request: Request) => Promise<Principal>;

export function mountEndpoints(app: express.Express, endpoints: Endpoint[], authenticate: Authenticate): void {
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
        ? handlerFor(endpoint, iface, authenticate)
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

function handlerFor(endpoint: Endpoint, iface: Interface, authenticate: Authenticate): RequestHandler {
  const status = endpoint.status ?? 200;
  return async (request: Request, response: Response) => {
    const principal = await authenticate(iface, endpoint, request);
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
    if (status === 204) response.status(204).end();
    else response.status(status).json({ data });
  };
}

function parse(schema: z.ZodType | undefined, value: unknown, prefix: string, root = prefix): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodIssues(result.error.issues, value, prefix, root);
  return result.data;
}
