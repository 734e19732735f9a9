/**
 * An endpoint is a declaration: method, path, the interfaces that offer it, who may call
 * it, one zod schema per input, and a handler that receives parsed input. Routers are
 * lists of endpoints; src/http/routes.ts mounts them. Handlers never read `req.body`.
 */
import type { z } from 'zod';
import type { Interface } from './interfaces.js';
import type { Principal } from './principal.js';

/**
 * `client`: the interface's normal credential — a user (Bearer or legacy Basic) in the
 * enterprise interface, an api-user with a token in the customer interface.
 * `api-user`: the customer interface's Basic header with an empty token part (POST /tokens).
 * `public`: no credential (user login).
 */
export type Access = 'client' | 'api-user' | 'public';

export interface RequestContext {
  iface: Interface;
  principal: Principal;
  requestId: string;
  ip: string;
  /** At the hub, the node that asked for this call on its caller's behalf (src/sync/hub/hub-routes.ts). */
  node?: string;
}

type Schema = z.ZodType;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Input<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

export interface Endpoint<
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  P extends Schema | undefined = Schema | undefined,
> {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  interfaces: readonly Interface[];
  access?: Access;
  /** A call a till waits on: served by the cash-desk lane when sent plainly (src/http/cash-desk-lane.ts). */
  cashDesk?: true;
  /**
   * A POST that stores nothing (a bill priced, rewards recommended): on a node with a writer
   * thread it is answered on the event loop, as a GET is (src/root/writer.ts).
   */
  reads?: true;
  /**
   * A GET that stores something (an auth-token code handed out): on a node with a writer thread
   * it is answered by the thread, as a write is (src/root/writer.ts).
   */
  writes?: true;
  /**
   * A read of facts, which a store holds only of its own: at a store with a hub it is asked
   * of the hub first (src/http/history-reads.ts).
   */
  history?: true;
  /**
   * Credential work only the hub does for a store that has one (DESIGN §4 "Credentials stay at
   * the hub"): customer-app logins, logouts, login codes, password-setup mail, and a registration
   * or change carrying a password (`true`, or for the bodies it says). A store with a hub asks its
   * hub (src/http/chain-sessions.ts) and answers 503 while the hub does not answer; a hub, or a
   * store without one, does the work itself.
   */
  atHub?: true | ((body: unknown) => boolean);
  /**
   * At a store, after the hub answered an `atHub` call with a 2xx: what the store keeps of the
   * answer (the session the hub made for this store's caller, or its end).
   */
  afterHub?: (answer: { status: number; body: unknown }, principal: Principal, body: unknown) => void;
  /** Its answer carries a credential (a bearer token, a token id, a login code): sent with `Cache-Control: no-store`. */
  credentials?: true;
  /** Success status: 200 by default; 204 sends no body. */
  status?: 200 | 201 | 204;
  /** One line for the API document (src/http/openapi.ts); without it the document shows the path alone. */
  summary?: string;
  /**
   * The structure of `data` in a successful answer, for the API document: every endpoint that
   * answers with a body declares it (test/http/openapi.test.ts), and its service answers as its type.
   */
  answer?: z.ZodType;
  body?: B;
  query?: Q;
  params?: P;
  handle(input: Input<Parsed<B>, Parsed<Q>, Parsed<P>>, context: RequestContext): unknown;
  /**
   * A write a store may take offline and the hub runs again (DESIGN §5 "Authority",
   * src/sync/hub/operation-kinds.ts): the kind of the command it queues, the table whose row the
   * first id it makes names (how the hub knows it ran the call already), and the same call
   * made synchronously, as the hub runs it inside its transaction.
   */
  offline?: {
    kind: string;
    makes: string;
    run(input: Input<Parsed<B>, Parsed<Q>, Parsed<P>>, context: RequestContext): void;
  };
}

/** Keeps the handler's input types tied to the schemas given. */
export function endpoint<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(definition: Endpoint<B, Q, P>): Endpoint {
  return definition as unknown as Endpoint;
}

/**
 * Whether a replay under an Idempotency-Key answers the first answer again: writes by a
 * client. Calls that hand out credentials (logins, token creation) are not kept: a stored
 * answer would hold a bearer token or token id in clear.
 */
export function takesIdempotencyKey(endpoint: Endpoint): boolean {
  return endpoint.method !== 'get' && (endpoint.access ?? 'client') === 'client';
}

/** Whether this call of the endpoint is one only the hub makes for a store that has one (`atHub`). */
export function atHubFor(endpoint: Endpoint, body: unknown): boolean {
  return typeof endpoint.atHub === 'function' ? endpoint.atHub(body) : endpoint.atHub === true;
}

/** Whether a request body carries a password: a registration or change that only the hub makes. */
export function carriesPassword(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { password?: unknown }).password !== undefined;
}

export const BOTH: readonly Interface[] = ['enterprise', 'customer'];
export const ENTERPRISE: readonly Interface[] = ['enterprise'];
export const CUSTOMER: readonly Interface[] = ['customer'];
