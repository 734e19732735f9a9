/**
 * Mounts endpoint lists under both interfaces. A path an interface does not offer answers
 * 403 `interface_not_allowed_exception` there; a known path with another method 405; any
 * other path 404 — each through the one error handler.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { interfaceNotAllowed, madeAtHeadOffice, methodNotAllowed, pathNotFound } from '../core/errors.js';
import { atHubFor, takesIdempotencyKey, type Endpoint, type RequestContext } from './endpoint.js';
import { basePath, INTERFACE_LABEL, INTERFACES, type Interface } from './interfaces.js';
import { inDataEnvelope } from './json-text.js';
import type { ChainSessions } from './chain-sessions.js';
import type { HistoryReads } from './history-reads.js';
import { SOURCE_HEADER } from './history-reads.js';
import type { IdempotencyKeys, StoredResponse } from './idempotency.js';
import type { Principal } from './principal.js';
import { fromZodIssues } from '../core/validation-errors.js';
import type { Operations } from '../core/operations.js';
import type { Durability } from '../db/durability.js';

/** What authentication reads of a request: its Authorization header and the caller's address. */
export type Authenticate = (iface: Interface, endpoint: Endpoint, request: { authorization: string | undefined; ip: string }) => Promise<Principal>;

export interface Mounting {
  authenticate: Authenticate;
  idempotency: IdempotencyKeys;
  /** At a store with a hub: where history reads go first. */
  history?: HistoryReads;
  /** At a store with a hub: where its credential calls are made (`atHub` endpoints). */
  sessions?: ChainSessions;
  /** Where a call's writes find the call their commands carry (src/core/operations.ts). */
  operations: Operations;
  /** When what a call committed is on disk (src/db/durability.ts). */
  durability: Pick<Durability, 'changes' | 'durable'>;
  /** On a node whose writes run on a writer thread (src/root/writer.ts): where a call that may write is answered. */
  writer?: CallWriter;
}

/** Answers a call on the thread that holds the read-write connection, as `answerFor` there answers it. */
export interface CallWriter {
  answer(key: string, call: Call): Promise<StoredResponse>;
}

/** What names an endpoint of an interface to the writer thread. */
export function answerKey(endpoint: Endpoint, iface: Interface): string {
  return `${iface} ${endpoint.method} ${endpoint.path}`;
}

/**
 * Whether a call is answered by the writer thread, when the node has one: every call but a GET
 * that stores nothing and a POST that stores nothing (`reads`), unless an Idempotency-Key asks
 * to keep its answer.
 */
function answeredByWriter(endpoint: Endpoint, call: Call): boolean {
  if (endpoint.method === 'get') return endpoint.writes === true;
  return !endpoint.reads || (call.idempotencyKey !== undefined && takesIdempotencyKey(endpoint));
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
      const handler = endpoint.interfaces.includes(iface) ? handlerFor(endpoint, iface, mounting) : refuseInterface(endpoint, iface);
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

/** One API call as both transports (express and the cash-desk lane) hand it over. */
export interface Call {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  ip: string;
  requestId: string;
  /** The path below the interface's base, as the idempotency fingerprint names it. */
  path: string;
  /** The query string as sent, without the `?`. */
  rawQuery: string;
  /**
   * Who asks, when a store already authenticated the caller and asks the hub on their behalf
   * (a history read or a credential call, src/sync/hub/hub-routes.ts); honoured for history
   * reads and for the calls an `atHub` endpoint makes at the hub only.
   */
  principal?: Principal;
  /** The node that asked, with `principal`. */
  node?: string;
  params: unknown;
  query: unknown;
  body: unknown;
}

export type Answer = (call: Call) => Promise<StoredResponse>;

/**
 * Authenticates, parses the input by the endpoint's schemas, runs it (under an Idempotency-Key
 * when one is sent), and answers once what it stands on is on disk: a call that changed rows,
 * an answer kept under an Idempotency-Key, a write's refusal (which may name a row just
 * committed). A call that only read is answered at once.
 */
export function answerFor(endpoint: Endpoint, iface: Interface, mounting: Mounting): Answer {
  const answer = answerHere(endpoint, iface, mounting);
  const { writer } = mounting;
  if (!writer) return answer;
  const key = answerKey(endpoint, iface);
  return (call) => (answeredByWriter(endpoint, call) ? writer.answer(key, call) : answer(call));
}

/** answerFor on the thread that holds the read-write connection, or on a node that has no writer thread. */
function answerHere(endpoint: Endpoint, iface: Interface, mounting: Mounting): Answer {
  const answer = answerUnsynced(endpoint, iface, mounting);
  const { durability } = mounting;
  const writes = endpoint.method !== 'get' || endpoint.writes === true;
  return async (call) => {
    const before = durability.changes();
    let answered: StoredResponse;
    try {
      answered = await answer(call);
    } catch (error) {
      if (writes) await durability.durable();
      throw error;
    }
    if (durability.changes() !== before || answered.replayed || (writes && answered.status >= 400)) await durability.durable();
    return answered;
  };
}

function answerUnsynced(endpoint: Endpoint, iface: Interface, { authenticate, idempotency, history, sessions, operations }: Mounting): Answer {
  const status = endpoint.status ?? 200;
  const keeps = takesIdempotencyKey(endpoint);
  return async (call) => {
    const atHub = atHubFor(endpoint, call.body);
    const delegated = endpoint.history === true || atHub;
    const principal = call.principal && delegated ? call.principal : await authenticate(iface, endpoint, call);
    if (endpoint.history && history) {
      const fromHub = await history.read({ iface, path: call.path, rawQuery: call.rawQuery, principal });
      if (fromHub) return fromHub;
    }
    if (atHub && sessions) {
      const method = endpoint.method.toUpperCase() as 'GET' | 'POST' | 'PUT';
      const fromHub = await sessions.begin({ iface, method, path: call.path, rawQuery: call.rawQuery, principal, body: call.body, ip: call.ip });
      if (!fromHub) throw madeAtHeadOffice();
      if (fromHub.status < 300) endpoint.afterHub?.({ status: fromHub.status, body: fromHub.body }, principal, call.body);
      return fromHub;
    }
    const execute = async (): Promise<StoredResponse> => {
      const raw = { params: call.params, query: call.query, body: call.body ?? {} };
      const input = parseInput(endpoint, raw);
      const context: RequestContext = { iface, principal, requestId: call.requestId, ip: call.ip, node: call.node };
      // Only a call the hub runs again is carried: another may hold a password.
      const recorded = endpoint.offline ? { iface, input: raw, principal } : undefined;
      const data = await operations.record(recorded, () => endpoint.handle(input as never, context));
      const answered: StoredResponse = { status, body: status === 204 ? undefined : inDataEnvelope(data) };
      if (endpoint.history && history) answered.source = 'local';
      return answered;
    };
    const key = keeps ? call.idempotencyKey : undefined;
    return key === undefined
      ? execute()
      : idempotency.run(`${iface}:${principalScope(principal)}`, key, [endpoint.method, call.path, call.body], execute);
  };
}

function handlerFor(endpoint: Endpoint, iface: Interface, mounting: Mounting): RequestHandler {
  const route = `${basePath(iface)}${endpoint.path}`;
  const answer = answerFor(endpoint, iface, mounting);
  return async (request: Request, response: Response) => {
    response.locals.route = route;
    const answered = await answer({
      authorization: request.get('authorization'),
      idempotencyKey: request.get('idempotency-key'),
      ip: (response.locals.delegatedAddress as string | undefined) ?? request.ip ?? '',
      requestId: String(response.locals.requestId),
      path: request.path,
      rawQuery: request.originalUrl.split('?')[1] ?? '',
      principal: response.locals.delegatedPrincipal as Principal | undefined,
      node: response.locals.nodeId as string | undefined,
      params: request.params,
      query: request.query,
      body: request.body,
    });
    if (answered.source) response.set(SOURCE_HEADER, answered.source);
    if (endpoint.credentials) response.set('Cache-Control', 'no-store');
    if (answered.body === undefined) response.status(answered.status).end();
    else response.status(answered.status).json(answered.body);
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

/** An endpoint's input parsed by its schemas, as the call made at a store is parsed again at the hub. */
export function parseInput(endpoint: Endpoint, raw: { params: unknown; query: unknown; body: unknown }) {
  return {
    params: parse(endpoint.params, raw.params, 'path'),
    query: parse(endpoint.query, raw.query, ''),
    body: parse(endpoint.body, raw.body ?? {}, '', 'body'),
  };
}

function parse(schema: z.ZodType | undefined, value: unknown, prefix: string, root = prefix): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodIssues(result.error.issues, value, prefix, root);
  return result.data;
}
