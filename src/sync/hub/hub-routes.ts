/**
 * The hub's sync endpoints under /sync/v1, authenticated by a store's node name and
 * secret (never a user's credentials) and gated by protocol and schema version: the hub
 * serves stores of its own schema version and of the one before it (DESIGN §5). Pushes and
 * snapshots are limited in flight and pushes in size (src/sync/hub/sync-limits.ts), and a push
 * or a replay is applied a turn of the loop at a time (src/sync/hub/pushes-in-turns.ts); pulls,
 * history reads and lookups of bills begin one a turn a node, within a share of the hub's time
 * (src/sync/hub/read-budget.ts).
 */
import express, { type Request, type RequestHandler, type Router } from 'express';
import { isIP } from 'node:net';
import { TLSSocket } from 'node:tls';
import { decodeBasic } from '../../auth/secrets.js';
import { servesSchema } from '../../db/migrate.js';
import { forbidden, invalidParam, methodNotAllowed, unauthorized } from '../../core/errors.js';
import { versionMismatch } from '../../core/sync-errors.js';
import type { Principal } from '../../http/principal.js';
import { fromZodIssues } from '../../core/validation-errors.js';
import type { Logger } from 'pino';
import { unlessAbandoned } from './abandoned-reads.js';
import type { ReadBudget } from './read-budget.js';
import type { Effect } from './command-effects.js';
import type { DelegatedPrincipals } from './delegated-principals.js';
import type { HubCommands } from './hub-commands.js';
import type { HubFeed } from './hub-feed.js';
import type { PushesInTurns } from './pushes-in-turns.js';
import type { NodeClocks } from './node-clocks.js';
import type { OriginalBillReads } from './original-bill-reads.js';
import type { SyncLimits } from './sync-limits.js';
import {
  ChangesQuery,
  DelegatedPrincipal,
  OriginalBillQuery,
  CALLER_ADDRESS_HEADER,
  PRINCIPAL_HEADER,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  REPORT_HEADER,
  SCHEMA_HEADER,
  SnapshotQuery,
  TOKEN_HEADER,
  ForwardedToken,
} from '../protocol/protocol.js';
import { sendJsonGzipped } from '../protocol/gzip-json.js';
import type { Exchange, StoreContacts } from './store-contacts.js';
import { decodeReport } from '../store/store-report.js';

/** Refuses a store whose TLS connection showed no certificate the hub's CA signed. */
const clientCertificate: RequestHandler = (request, _response, next) => {
  if (!(request.socket instanceof TLSSocket) || !request.socket.authorized) {
    throw unauthorized("A client certificate signed by the hub's CA is required for sync");
  }
  next();
};

/** How the hub knows a store by its node credentials: its node id, or a thrown 401 (src/features/nodes/nodes.service.ts). */
export interface NodeDirectory {
  authenticate(name: string, secret: string): string;
}

export function hubRouter(options: {
  nodes: NodeDirectory;
  commands: HubCommands;
  pushes: PushesInTurns;
  /** Done once what the hub committed is on disk (src/db/durability.ts): a store drops what the hub answers as applied. */
  durable: () => Promise<void>;
  feed: HubFeed;
  clocks: NodeClocks;
  originals: OriginalBillReads;
  /** Who the hub answers a store's history read for (src/sync/hub/delegated-principals.ts). */
  principals: DelegatedPrincipals;
  schemaVersion: number;
  log: Logger;
  /** Where what each store says of itself is kept for the status page and metrics. */
  contacts: StoreContacts;
  clock: () => number;
  /** Whether a store must show a client certificate the hub's CA signed (`http.tls.client_certificates` 'sync'). */
  requireClientCertificate: boolean;
  /** What the hub takes from its stores at once: pushes and snapshots in flight, a push's bytes and row changes. */
  limits: SyncLimits;
  /** The share of the hub's event loop one store's reads take. */
  reads: ReadBudget;
}): Router {
  const { limits, reads } = options;
  const pushBody = limits.pushBody();
  const router = express.Router();
  if (options.requireClientCertificate) router.use(clientCertificate);
  router.use(reads.arrival(), authenticateNode(options.nodes), hearStore(options.contacts, options.clock), checkVersions(options.schemaVersion));
  router.post('/commands', limits.slot('push'), pushBody, async (request, response) => {
    const { results, effects, skewMs } = await options.pushes.apply(String(response.locals.nodeId), request.body);
    const rejected = results.filter((result) => result.status === 'rejected').length;
    response.locals.exchange = { commands: results.length, applied: results.length - rejected, rejected } satisfies Partial<Exchange>;
    await options.durable();
    response.json(skewMs > 0 ? { results, clock_skew_ms: skewMs } : { results });
    void runEffects(effects, options.log);
  });
  // What this hub lost to a restore from a backup (src/sync/store/replay.ts): a store's
  // acknowledged commands, run again as a push's are.
  router.post('/replay', limits.slot('push'), pushBody, async (request, response) => {
    const nodeId = String(response.locals.nodeId);
    const results = await options.pushes.replay(nodeId, request.body);
    await options.durable();
    response.json({ results });
  });
  router.get('/changes', reads.turn(), async (request, response) => {
    const query = ChangesQuery.safeParse(request.query);
    if (!query.success) throw fromZodIssues(query.error.issues, request.query, '');
    const { pushed_through: pushedThrough, feed_id: feedId } = query.data;
    const nodeId = String(response.locals.nodeId);
    if (pushedThrough && (feedId === undefined || feedId === options.feed.feedId())) options.clocks.report(nodeId, pushedThrough);
    const page = reads.charged(nodeId, () => options.feed.changesAfter(nodeId, query.data.after, query.data.limit));
    response.locals.exchange = { changes: page.changes } satisfies Partial<Exchange>;
    await sendJsonGzipped(request, response, page.text);
  });
  // The bill a return at one of the node's stores names, without its customer (src/sync/hub/original-bill-reads.ts).
  router.get('/original-bill', reads.turn(), (request, response) => {
    const query = OriginalBillQuery.safeParse(request.query);
    if (!query.success) throw fromZodIssues(query.error.issues, request.query, '');
    const nodeId = String(response.locals.nodeId);
    response.json(reads.charged(nodeId, () => options.originals.read(nodeId, query.data.store_id, query.data.bill_number)));
  });
  // A store's history read (src/http/history-reads.ts): the API call, run for the caller the
  // store authenticated, as if it had been made here, unless the store has given up on it.
  router.use('/history', reads.turn(), (request, response, next) => {
    if (request.method !== 'GET') throw methodNotAllowed(request.method, ['GET']);
    const principal = principalOf(request.get(PRINCIPAL_HEADER));
    response.locals.delegatedPrincipal = options.principals.verifyReader(String(response.locals.nodeId), request.path, principal);
    unlessAbandoned(request, () =>
      reads.charged(String(response.locals.nodeId), () => (request.app as unknown as RequestHandler)(request, response, next)),
    );
  });
  // A credential call a store asks for its caller (src/sync/store/hub-sessions.ts): a login, a
  // logout, a login code, a password-setup mail, a registration or change with a password, run
  // here as if made here; any other call is authenticated as usual, and answered 401 (src/http/routes.ts).
  // A customer app's token comes without its secret and is kept as the store's. Failed logins are
  // throttled by the caller's address as the store saw it, within that store, where the store's own
  // address would lock every caller of the store out (src/decisions/0097-chain-logins-by-caller-address.md);
  // the store names that address, so they count against the node's own cap too (src/decisions/0105-login-throttles.md).
  router.use('/sessions', (request, response, next) => {
    if (!CREDENTIAL_METHODS.includes(request.method)) throw methodNotAllowed(request.method, CREDENTIAL_METHODS);
    const nodeId = String(response.locals.nodeId);
    const principal = principalOf(request.get(PRINCIPAL_HEADER));
    if (principal.kind === 'anonymous') throw forbidden('A store asks for a credential call on behalf of a caller it authenticated');
    if (principal.kind === 'token') options.principals.adoptToken(nodeId, principal, forwardedTokenOf(request.get(TOKEN_HEADER)));
    response.locals.delegatedPrincipal = options.principals.verifyAt(nodeId, principal);
    response.locals.delegatedAddress = callerAddress(nodeId, request.get(CALLER_ADDRESS_HEADER));
    (request.app as unknown as RequestHandler)(request, response, next);
  });
  router.get('/snapshot', limits.slot('snapshot'), async (request, response) => {
    const query = SnapshotQuery.safeParse(request.query);
    if (!query.success) throw fromZodIssues(query.error.issues, request.query, '');
    const { entity, after_id: afterId, pushed_through: pushedThrough, format } = query.data;
    if (pushedThrough) options.clocks.report(String(response.locals.nodeId), pushedThrough);
    response.type('application/x-ndjson');
    try {
      const nodeThrough = options.commands.heldThrough(String(response.locals.nodeId));
      await options.feed.writeSnapshot(response, String(response.locals.nodeId), entity ? { entity, afterId } : undefined, format, nodeThrough);
      response.end();
    } catch (error) {
      // Headers are gone: cutting the connection is how the store learns the stream is short.
      response.destroy(error as Error);
    }
  });
  return router;
}

async function runEffects(effects: Effect[], log: Logger): Promise<void> {
  for (const effect of effects) {
    try {
      await effect();
    } catch (error) {
      log.error({ err: error }, 'a command effect failed');
    }
  }
}

/**
 * The address a store's caller is throttled by at the hub: the caller's within its store, or the
 * store's when it names none. The store may name any: its node's cap bounds them all together.
 */
function callerAddress(nodeId: string, header: string | undefined): string {
  if (header === undefined) return `store ${nodeId}`;
  if (isIP(header) === 0) throw invalidParam(CALLER_ADDRESS_HEADER, 'invalid_value_format', header, "Send the caller's IP address");
  return `store ${nodeId} ${header}`;
}

const CREDENTIAL_METHODS = ['GET', 'POST', 'PUT'];

/** The caller's token as a store sends it with a credential call, without its secret; undefined when it sends none. */
function forwardedTokenOf(header: string | undefined): ForwardedToken | undefined {
  if (header === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    throw invalidParam(TOKEN_HEADER, 'invalid_value_format', undefined, "Send the caller's token as base64url JSON");
  }
  const token = ForwardedToken.safeParse(value);
  if (!token.success) throw fromZodIssues(token.error.issues, value, TOKEN_HEADER);
  return token.data;
}

function principalOf(header: string | undefined): Principal {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8'));
  } catch {
    throw invalidParam(PRINCIPAL_HEADER, 'invalid_value_format', header, 'Send the caller as base64url JSON');
  }
  const principal = DelegatedPrincipal.safeParse(value);
  if (!principal.success) throw fromZodIssues(principal.error.issues, value, PRINCIPAL_HEADER);
  return principal.data;
}

function authenticateNode(nodes: NodeDirectory): RequestHandler {
  return (request: Request, response, next) => {
    const credentials = decodeBasic(request.get('authorization'));
    if (!credentials) throw unauthorized('Send Authorization: Basic base64(node_name:node_secret)');
    response.locals.nodeId = nodes.authenticate(credentials.user, credentials.secret);
    next();
  };
}

/**
 * Notes the store's call — its versions even when they are refused next, its report when it
 * sent one — and, once answered, the exchange. A report that does not parse is passed over:
 * status figures never stop a store's sync.
 */
function hearStore(contacts: StoreContacts, clock: () => number): RequestHandler {
  return (request, response, next) => {
    const nodeId = String(response.locals.nodeId);
    const versionOf = (header: string) => (request.get(header) === undefined ? null : Number(request.get(header)) || null);
    const header = request.get(REPORT_HEADER);
    contacts.heard(
      nodeId,
      { protocol: versionOf(PROTOCOL_HEADER), schema: versionOf(SCHEMA_HEADER) },
      header === undefined ? undefined : decodeReport(header),
    );
    const started = clock();
    response.once('finish', () => {
      const kind = request.path === '/commands' ? 'push' : request.path === '/changes' ? 'pull' : request.path === '/snapshot' ? 'snapshot' : 'other';
      if (kind === 'other') return;
      const details = (response.locals.exchange ?? {}) as Partial<Exchange>;
      contacts.exchanged(nodeId, { ...details, at: new Date(started).toISOString(), kind, status: response.statusCode, ms: clock() - started });
    });
    next();
  };
}

/** Serves stores of this protocol alone: hub and stores upgrade together. */
function checkVersions(schemaVersion: number): RequestHandler {
  return (request, _response, next) => {
    const protocol = Number(request.get(PROTOCOL_HEADER));
    const schema = Number(request.get(SCHEMA_HEADER));
    if (protocol !== PROTOCOL_VERSION || !servesSchema(schemaVersion, schema)) {
      throw versionMismatch({ protocol: PROTOCOL_VERSION, schema: schemaVersion }, { protocol, schema });
    }
    next();
  };
}
