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
import { checkFeedMark, keepFeedMark } from '../sync/hub/feed-mark.js';
import { isSqlite } from '../db/sqlite.js';
import type { BackgroundTask } from '../features/feature.js';
import type { HeldCommands } from '../sync/hub/held-commands.js';
import type { HubCommands } from '../sync/hub/hub-commands.js';
import { createHttp, type WriterThread } from './http.js';
import { SharedCommits } from '../db/shared-commits.js';
import { createHub } from './hub.js';
import { featureEndpoints } from './features.js';
import { openNode, openReadingNode, type Node } from './node.js';
import { createServices, type Services } from './services.js';
import { createHubAsks, createStoreSync, syncAgentTask } from './store.js';
import type { Answer } from '../http/routes.js';

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
  /** The answer to the calls of an endpoint of an interface (`answerKey`), as the writer thread runs them. */
  answerOf(key: string): Answer | undefined;
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
  /**
   * A store's writer thread (src/root/writer.ts), which holds the folder's read-write connection
   * and runs the node's background tasks: this app reads through a read-only connection, runs
   * no background task, and hands every call that may write to the writer.
   */
  writer?: WriterThread;
  /** On a store's writer thread: where it counts its commits for the event loop's caches (src/db/shared-commits.ts). */
  commits?: SharedCommits;
  /** On a store's writer thread: whether a call the event loop handed it waits (src/core/waiting-calls.ts). */
  callsWaiting?: () => boolean;
  /** Whether a hub reads its snapshots on threads of their own (src/sync/hub/snapshot-threads.ts): the daemon's does. */
  snapshotThreads?: boolean;
  /** A store's writer thread: its commits are flushed by the event loop that answers its calls (src/root/writer.ts). */
  flushesHandedOff?: boolean;
  /** The daemon: the one process serving its database, which a hub on PostgreSQL holds a lock for. */
  serving?: boolean;
}

export function createApp({
  config,
  clock,
  log,
  syncAgent = false,
  writer,
  commits,
  callsWaiting = () => false,
  snapshotThreads = false,
  flushesHandedOff = false,
  serving = false,
}: AppOptions): App {
  if (writer && config.mode !== 'store') throw new Error('only a store runs a writer thread');
  const node = writer ? openReadingNode(config, clock, new SharedCommits(writer.commits)) : openNode(config, clock, commits, serving);
  // Feature code reads a replayed operation's as-of time (src/core/operations.ts).
  const featureClock = node.operations.clock();
  const services = createServices(node, config, featureClock);
  const background: BackgroundTask[] = [];
  // Beside a writer thread, the thread runs the node's background tasks.
  const runs = (task: BackgroundTask) => {
    if (!writer) background.push(task);
  };
  // PostgreSQL checkpoints its own log.
  if (isSqlite(node.db)) {
    const sqlite = node.db;
    runs((taskLog) => startCheckpointer(sqlite, taskLog));
  }
  runs((taskLog) => (flushesHandedOff ? node.durability.handOff() : node.durability.startFlusher(taskLog)));
  const hub = config.mode === 'hub' ? createHub(node, config, services, clock, log, snapshotThreads) : undefined;
  if (hub) background.push(...hub.tasks);
  if (hub && serving) {
    checkFeedMark(node.db, config.data_dir);
    background.push((taskLog) => keepFeedMark(node.db, config.data_dir, taskLog));
  }
  const sync = syncAgent && !writer ? createStoreSync(node, config, clock) : undefined;
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
    servesFeed: config.mode === 'hub',
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
    runInBackground: runs,
    callsWaiting: () => callsWaiting() || node.durability.awaited(),
  });
  hub?.kinds.add(endpoints);
  const { http, listener, answerOf, close: closeHttp } = createHttp({ node, config, services, endpoints, hub, asks, writer, clock, log });
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
  return { node, services, held: hub?.held, hubCommands: hub?.commands, http, listener, answerOf, startBackground, close };
}
