/** Composition root: opens the node, builds services, mounts routers, error handler last. */
import express from 'express';
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { startCheckpointer } from '../db/checkpointer.js';
import { schemaVersion } from '../db/migrate.js';
import type { BackgroundTask } from '../features/feature.js';
import { FEATURES } from './features.js';
import { apiDocsRouter } from '../features/api-docs/api-docs.routes.js';
import { HUB_SYNC_ROUTES } from '../features/api-docs/hub-sync-routes.js';
import { PLAIN_ROUTES } from '../features/api-docs/plain-routes.js';
import { externalApplicationsRoutes } from '../features/external-applications/external-applications.routes.js';
import { healthRouter } from '../ops/health.routes.js';
import { createNodeStatus } from '../ops/node-status.js';
import { tokensRoutes } from '../features/tokens/tokens.routes.js';
import { usersRoutes } from '../features/users/users.routes.js';
import { createAuthenticator } from '../http/authenticate.js';
import { errorHandler } from '../http/error-handler.js';
import { IdempotencyKeys } from '../http/idempotency.js';
import { cashDeskLane } from '../http/cash-desk-lane.js';
import { createHttpMetrics, createObserver, observeRequests, registerSyncMetrics } from '../ops/observability.js';
import { parseQuery } from '../http/query.js';
import { mountEndpoints } from '../http/routes.js';
import { OperationKinds } from '../sync/hub/operation-kinds.js';
import { openApiDocument } from '../http/openapi.js';
import { pathNotFound } from '../core/errors.js';
import { startStateSettling } from '../loyalty/state-settling.js';
import { openNode, type Node } from './node.js';
import { createServices, type Services } from './services.js';
import { publicSyncStatus } from '../sync/status.js';
import { publicStorage, StorageReader } from '../sync/storage-status.js';
import { createFeedCompaction, createHubAuthority, createHubAsks, createHubSyncRouter, startFeedCompaction } from './wiring.js';
import type { HeldCommands } from '../sync/hub/held-commands.js';

export interface App {
  node: Node;
  services: Services;
  /** At the hub: the stores' operations it holds for an operator (src/sync/hub/held-commands.ts). */
  held: HeldCommands | undefined;
  http: express.Express;
  /** What the HTTP server runs: the cash-desk lane, in front of the express app. */
  listener: RequestListener;
  /** Starts the features' background work (src/features/feature.ts); returns its stop, done when all of it has stopped. */
  startBackground(): () => Promise<void>;
  close(): void;
}

export function createApp({ config, clock, log }: { config: Config; clock: Clock; log: Logger }): App {
  const node = openNode(config, clock);
  // Feature code reads a replayed operation's as-of time (src/core/operations.ts).
  const featureClock = node.operations.clock();
  const services = createServices(node, config, featureClock);
  const kinds = new OperationKinds();
  const authority = config.mode === 'hub' ? createHubAuthority(node, config, services, kinds, clock) : undefined;
  const metrics = createHttpMetrics();
  const observe = createObserver(log, metrics);
  const started = clock();
  const status = createNodeStatus(node, config, services.users, clock);
  const storage = new StorageReader(node.db, config);
  registerSyncMetrics(metrics.registry, config.mode, status.figures);
  const background: BackgroundTask[] = [(taskLog) => startCheckpointer(node.db, taskLog)];

  const http = express();
  http.disable('x-powered-by');
  // No ETag: API answers are not cached by clients, and hashing every body costs the cash
  // desk's calls ~1 % (checkout bench profile).
  http.set('etag', false);
  http.set('trust proxy', 'loopback');
  http.set('query parser', parseQuery);
  http.use(observeRequests(observe));
  http.use(
    healthRouter(() => {
      const reasons = status.reasons();
      return {
        status: reasons.length === 0 ? 'ok' : 'degraded',
        reasons,
        mode: config.mode,
        node_id: node.identity.nodeId,
        schema_version: schemaVersion(),
        uptime_seconds: Math.round((clock() - started) / 1000),
        sync: publicSyncStatus(status.sync()),
        storage: publicStorage(storage.read(clock)),
      };
    }, metrics.registry),
  );
  http.use(status.router);
  if (authority) {
    http.use('/sync/v1', createHubSyncRouter(node, config, services, authority, status.contacts, clock, log));
    const compaction = createFeedCompaction(node, config, clock);
    background.push((taskLog) => startFeedCompaction(compaction, taskLog));
    const states = node.states!;
    background.push((taskLog) => startStateSettling(states, node.writes, config.sync.settle_interval_seconds * 1000, taskLog));
  }
  const parseBody = express.json({ limit: config.http.body_limit_bytes, type: ['application/json', 'application/*+json'] });
  http.use(parseBody);
  const hub = createHubAsks(config, node.db, services.tokens);
  const endpoints = [
    ...usersRoutes(services.users),
    ...tokensRoutes(services),
    ...externalApplicationsRoutes(services.applications),
    ...FEATURES.flatMap((feature) => feature({ node, config, clock: featureClock, services, background, hub: hub?.history })),
  ];
  kinds.add(endpoints);
  const mounting = {
    operations: node.operations,
    authenticate: createAuthenticator(services),
    idempotency: new IdempotencyKeys(node.db, clock, config.idempotency.retention_days * 86_400_000),
    history: hub?.history,
    sessions: hub?.sessions,
  };
  mountEndpoints(http, endpoints, mounting);
  http.use(apiDocsRouter(openApiDocument(endpoints, config.mode === 'hub' ? [...PLAIN_ROUTES, ...HUB_SYNC_ROUTES] : PLAIN_ROUTES)));
  http.use((request) => {
    throw pathNotFound(request.path);
  });
  http.use(errorHandler(log, config.http.body_limit_bytes));
  const startBackground = () => {
    const stops = background.map((task) => task(log));
    return async () => {
      await Promise.all(stops.map((stop) => stop()));
    };
  };
  const listener = cashDeskLane({ endpoints, mounting, observe, parseBody, log, bodyLimitBytes: config.http.body_limit_bytes }, http);
  const close = () => {
    void hub?.history.close();
    node.close();
  };
  return { node, services, held: authority?.held, http, listener, startBackground, close };
}
