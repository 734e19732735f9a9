/**
 * The composition root, in the order a node is built: config → node → services → features →
 * the HTTP app → background tasks. Nothing else in src/ builds the node's parts, and only the
 * CLI (the daemon's entry) imports this folder.
 */
import type { RequestListener } from 'node:http';
import type express from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { type Config, syncsWithHub } from '../core/config.js';
import { startCheckpointer } from '../db/checkpointer.js';
import type { BackgroundTask } from '../features/feature.js';
import type { HeldCommands } from '../sync/hub/held-commands.js';
import type { HubCommands } from '../sync/hub/hub-commands.js';
import { createHttp } from './http.js';
import { createHub } from './hub.js';
import { featureEndpoints } from './features.js';
import { openNode, type Node } from './node.js';
import { createServices, type Services } from './services.js';
import { createHubAsks, createStoreSync, syncAgentTask } from './store.js';

export interface App {
  node: Node;
  services: Services;
  /** At the hub: the stores' operations it holds for an operator (src/sync/hub/held-commands.ts). */
  held: HeldCommands | undefined;
  /** At the hub: its apply of the stores' pushes (src/sync/hub/hub-commands.ts). */
  hubCommands: HubCommands | undefined;
  http: express.Express;
  /** What the HTTP server runs: the cash-desk lane, in front of the express app. */
  listener: RequestListener;
  /** Starts the node's background tasks (src/root/server.ts does once it listens); returns their stop, done when all have stopped. */
  startBackground(): () => Promise<void>;
  close(): void;
}

export interface AppOptions {
  config: Config;
  clock: Clock;
  log: Logger;
  /**
   * Whether a store with a hub runs its sync agent while it serves: the daemon does; tests and
   * CLI commands drive their rounds themselves. Its settings are checked here, so that a store
   * missing its node credentials stops before it listens.
   */
  syncAgent?: boolean;
}

export function createApp({ config, clock, log, syncAgent = false }: AppOptions): App {
  const node = openNode(config, clock);
  // Feature code reads a replayed operation's as-of time (src/core/operations.ts).
  const featureClock = node.operations.clock();
  const services = createServices(node, config, featureClock);
  const background: BackgroundTask[] = [(taskLog) => startCheckpointer(node.db, taskLog), (taskLog) => node.durability.startFlusher(taskLog)];
  const hub = config.mode === 'hub' ? createHub(node, config, services, clock, log) : undefined;
  if (hub) background.push(...hub.tasks);
  const sync = syncAgent ? createStoreSync(node, config, clock) : undefined;
  if (sync) background.push(syncAgentTask(sync, config, clock));
  const asks = createHubAsks(config, node.db, services.tokens);
  const endpoints = featureEndpoints({
    db: node.db,
    writes: node.writes,
    newId: node.newId,
    clock: featureClock,
    asOf: () => node.operations.asOf(),
    timeZone: config.time_zone,
    nodeId: node.identity.nodeId,
    syncsWithHub: syncsWithHub(config),
    customers: services.customersRepo,
    ledger: services.ledger,
    balances: node.balances,
    hub: asks?.history,
    users: services.users,
    applications: services.applications,
    tokens: services.tokens,
    socialLogin: services.socialLogin,
    passwordSetup: services.passwordSetup,
    authTokens: services.authTokens,
    runInBackground: (task) => background.push(task),
  });
  hub?.kinds.add(endpoints);
  const { http, listener, close: closeHttp } = createHttp({ node, config, services, endpoints, hub, asks, clock, log });
  const startBackground = () => {
    const stops = background.map((task) => task(log));
    return async () => {
      await Promise.all(stops.map((stop) => stop()));
    };
  };
  const close = () => {
    closeHttp();
    void asks?.history.close();
    node.close();
  };
  return { node, services, held: hub?.held, hubCommands: hub?.commands, http, listener, startBackground, close };
}
