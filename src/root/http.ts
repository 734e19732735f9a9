/**
 * The node's HTTP app: the request log and metrics first, then the operations pages, the hub's
 * sync endpoints, both interfaces' endpoints and the API document; the error handler last. The
 * cash-desk lane answers a till's plain calls in front of it (src/http/cash-desk-lane.ts).
 */
import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { pathNotFound } from '../core/errors.js';
import { schemaVersion } from '../db/migrate.js';
import { apiDocsEndpoints } from '../features/api-docs/api-docs.routes.js';
import { HUB_SYNC_ROUTES } from '../features/api-docs/hub-sync-routes.js';
import { createAuthenticator } from '../http/authenticate.js';
import { cashDeskLane } from '../http/cash-desk-lane.js';
import type { Endpoint } from '../http/endpoint.js';
import { errorHandler } from '../http/error-handler.js';
import { jsonBody } from '../http/json-body.js';
import { IdempotencyKeys } from '../http/idempotency.js';
import { openApiDocument } from '../http/openapi.js';
import { documented, mountPlainEndpoints } from '../http/plain-endpoint.js';
import { parseQuery } from '../http/query.js';
import { answerFor, answerKey, mountEndpoints, type Answer, type CallWriter } from '../http/routes.js';
import { frontPageEndpoint } from '../ops/front-page.routes.js';
import { healthEndpoints } from '../ops/health.routes.js';
import { createHttpMetrics } from '../ops/http-metrics.js';
import { writeProbe } from '../ops/node-health.js';
import { createNodeStatus } from '../ops/node-status.js';
import { logRefusedHashes } from '../ops/refused-hashes.js';
import { opsAccess } from '../ops/ops-access.js';
import { createObserver, observeRequests } from '../ops/request-log.js';
import { registerSyncMetrics } from '../ops/sync-metrics.js';
import type { Hub } from './hub.js';
import type { Node } from './node.js';
import type { Services } from './services.js';
import type { HubAsks } from './store.js';

/** A store's writer thread as the event loop's app sees it (src/root/writer.ts). */
export interface WriterThread extends CallWriter {
  /** Flushes of the log the thread has done: what /metrics shows. */
  readonly flushes: number;
  /** Why the node's writes would fail, as the thread last found. */
  databaseProblem(): string | undefined;
  /** The memory in which the thread counts its commits per table (src/db/shared-commits.ts). */
  readonly commits: SharedArrayBuffer;
}

export interface HttpParts {
  node: Node;
  config: Config;
  services: Services;
  endpoints: Endpoint[];
  /** On a hub, its sync endpoints and what stores said of themselves. */
  hub: Hub | undefined;
  /** At a store with a hub, where its history reads and customer-app logins go first. */
  asks: HubAsks | undefined;
  /** Where calls that may write are answered, on a node with a writer thread (src/root/writer.ts). */
  writer: WriterThread | undefined;
  clock: Clock;
  log: Logger;
}

export function createHttp({ node, config, services, endpoints, hub, asks, writer, clock, log }: HttpParts) {
  const metrics = createHttpMetrics(() => (writer ?? node.durability).flushes);
  const stopLoggingRefusedHashes = logRefusedHashes(log);
  const observe = createObserver(log, metrics);
  const status = createNodeStatus({
    db: node.db,
    config,
    nodeId: node.identity.nodeId,
    schemaVersion: schemaVersion(),
    users: services.users,
    contacts: hub?.contacts,
    databaseProblem: writer ? () => writer.databaseProblem() : writeProbe(node.db, clock),
    clock,
  });
  registerSyncMetrics(metrics.registry, config.mode, status.figures);
  const operations = [frontPageEndpoint(config.mode), ...healthEndpoints(status.health, metrics.registry, opsAccess(config.ops)), ...status.pages];
  const docs = apiDocsEndpoints(() => openApiDocument(endpoints, [...documented(operations), ...documented(docs), ...(hub ? HUB_SYNC_ROUTES : [])]));

  const http = express();
  http.disable('x-powered-by');
  // No ETag: API answers are not cached by clients, and hashing every body costs the cash
  // desk's calls ~1 % (checkout bench profile).
  http.set('etag', false);
  http.set('trust proxy', 'loopback');
  http.set('query parser', parseQuery);
  http.use(observeRequests(observe));
  mountPlainEndpoints(http, operations);
  if (hub) http.use('/sync/v1', hub.router);
  const parseBody = jsonBody(config.http.body_limit_bytes);
  http.use(parseBody);
  const mounting = {
    operations: node.operations,
    authenticate: createAuthenticator(services),
    idempotency: new IdempotencyKeys(node.db, clock, config.idempotency.retention_days * 86_400_000),
    history: asks?.history,
    sessions: asks?.sessions,
    durability: node.durability,
    writer,
  };
  mountEndpoints(http, endpoints, mounting);
  mountPlainEndpoints(http, docs);
  http.use((request) => {
    throw pathNotFound(request.path);
  });
  http.use(errorHandler(log, config.http.body_limit_bytes));
  const listener: RequestListener = cashDeskLane(
    { endpoints, mounting, observe, parseBody, log, bodyLimitBytes: config.http.body_limit_bytes },
    http,
  );
  let answers: Map<string, Answer> | undefined;
  return {
    http,
    listener,
    /** The answer to an endpoint's calls, as the writer thread gives it (src/root/writer-thread.ts). */
    answerOf: (key: string): Answer | undefined => {
      answers ??= new Map(
        endpoints.flatMap((endpoint) => endpoint.interfaces.map((iface) => [answerKey(endpoint, iface), answerFor(endpoint, iface, mounting)])),
      );
      return answers.get(key);
    },
    close: () => {
      metrics.close();
      stopLoggingRefusedHashes();
    },
  };
}
