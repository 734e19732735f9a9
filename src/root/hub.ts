/** The hub's parts: its authority over what stores push, its sync endpoints under /sync/v1 and its feed compaction. */
import type { Router } from 'express';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { repeatUnlessRunning } from '../core/repeat.js';
import { schemaVersion } from '../db/migrate.js';
import { databaseFile, type Node } from './node.js';
import { FoldConflicts } from '../sync/fold-conflicts.js';
import { HubCommands } from '../sync/hub/hub-commands.js';
import { PushesInTurns } from '../sync/hub/pushes-in-turns.js';
import { ClockSkews } from '../sync/hub/clock-skews.js';
import { HeldCommands } from '../sync/hub/held-commands.js';
import { HubOperations } from '../sync/hub/hub-operations.js';
import { NodeLimits } from '../sync/hub/node-limits.js';
import { OperationKinds } from '../sync/hub/operation-kinds.js';
import { DelegatedPrincipals } from '../sync/hub/delegated-principals.js';
import { FeedCompaction } from '../sync/hub/feed-compaction.js';
import { CheckoutRepo } from '../features/checkout/checkout.repo.js';
import { OriginalBills } from '../features/checkout/original-bills.js';
import { OriginalBillReads } from '../sync/hub/original-bill-reads.js';
import { HubFeed } from '../sync/hub/hub-feed.js';
import { NodeClocks } from '../sync/hub/node-clocks.js';
import { hubRouter } from '../sync/hub/hub-routes.js';
import { ReadBudget } from '../sync/hub/read-budget.js';
import { SyncLimits } from '../sync/hub/sync-limits.js';
import { SnapshotThreads } from '../sync/hub/snapshot-threads.js';
import { replicatedTables } from '../sync/replicated-tables.js';
import { CommandPolicy } from '../sync/hub/command-policy.js';
import { CommandEffects } from '../sync/hub/command-effects.js';
import { listDuplicateRegistrations } from '../sync/hub/duplicate-registrations.js';
import { registerRegistrationMail, type RegistrationMail } from '../features/tokens/password-setup.effect.js';
import type { Logger } from 'pino';
import type { Services } from './services.js';
import { StoreContacts } from '../sync/hub/store-contacts.js';
import type { BackgroundTask } from '../features/feature.js';
import { startStateSettling } from '../loyalty/state-settling.js';

/** The hub's authority over what stores push (DESIGN §5 "Authority"): the commands' apply and the operations it holds. */
interface HubAuthority {
  commands: HubCommands;
  held: HeldCommands;
  /** Shared with the sync endpoints: a store's original bills and the customers it acts for. */
  originals: OriginalBills;
  principals: DelegatedPrincipals;
}

function createHubAuthority(
  node: Node,
  config: Config,
  services: Pick<Services, 'ledger' | 'customersRepo' | 'tokensRepo' | 'passwordSetup'>,
  kinds: OperationKinds,
  clock: Clock,
): HubAuthority {
  if (!node.states) throw new Error('a hub node publishes customer states');
  const maxSkewMs = config.sync.max_clock_skew_seconds * 1000;
  const policy = new CommandPolicy(node.db, clock);
  const limits = new NodeLimits(node.db, config.authority, config.time_zone, clock);
  const principals = new DelegatedPrincipals(node.db, node.writes);
  const conflicts = new FoldConflicts(node.db, node.balances, node.newId, clock);
  const operations = new HubOperations({
    db: node.db,
    writes: node.writes,
    operations: node.operations,
    kinds,
    policy,
    principals,
    limits,
    conflicts,
    hlc: node.hlc,
    clock,
    maxSkewMs,
  });
  const held = new HeldCommands(node.db, operations, node.newId, clock);
  const originals = new OriginalBills(new CheckoutRepo(node.db), services.ledger);
  const effects = hubEffects({ customers: services.customersRepo, passwordSetup: services.passwordSetup });
  const commands = new HubCommands({
    db: node.db,
    writes: node.writes,
    policy,
    effects,
    states: node.states,
    listeners: [listDuplicateRegistrations(node.db, node.newId, clock)],
    clock,
    operations,
    holds: held,
    skews: new ClockSkews(node.db, node.newId),
    maxSkewMs,
  });
  return { commands, held, originals, principals };
}

function createHubSyncRouter(
  node: Node,
  config: Config,
  services: Pick<Services, 'nodes'>,
  authority: HubAuthority,
  contacts: StoreContacts,
  clock: Clock,
  log: Logger,
  snapshotThreads: boolean,
): Router {
  const tables = replicatedTables(node.db);
  const stamp = () => node.hlc.now();
  return hubRouter({
    nodes: services.nodes,
    log,
    contacts,
    clock,
    commands: authority.commands,
    pushes: new PushesInTurns(node.db, authority.commands, config.sync_limits.push_turn_ms),
    durable: () => node.durability.durable(),
    originals: new OriginalBillReads({
      db: node.db,
      bills: authority.originals,
      perNodeDay: config.sync_limits.original_bills_per_node_day,
      timeZone: config.time_zone,
      clock,
    }),
    principals: authority.principals,
    feed: new HubFeed({
      db: node.db,
      snapshotSource: config.database.url === undefined ? { file: databaseFile(config.data_dir) } : { url: config.database.url },
      replicated: tables,
      schemaVersion: schemaVersion(),
      stamp,
      // libpq's npm package loads in one thread of a process alone (its addon is not context
      // aware: a second thread's load fails), and watches its sockets on the main thread's loop:
      // a hub on PostgreSQL reads its snapshots on its own thread, a page a turn of its loop.
      threads: snapshotThreads && config.database.url === undefined ? new SnapshotThreads(config.sync_limits.snapshots_in_all, stamp) : undefined,
    }),
    clocks: new NodeClocks(node.db, node.hlc, clock),
    schemaVersion: schemaVersion(),
    requireClientCertificate: config.http.tls?.client_certificates === 'sync',
    limits: new SyncLimits(config.sync_limits, clock),
    reads: new ReadBudget(config.sync_limits, clock),
  });
}

/** What the hub does after a store's commands beyond their rows, as the features that own them register it. */
function hubEffects(mail: RegistrationMail): CommandEffects {
  const effects = new CommandEffects();
  registerRegistrationMail(effects, mail);
  return effects;
}

const COMPACT_EVERY_MS = 3_600_000;

/** The hub's feed compaction. */
export function createFeedCompaction(node: Node, config: Config, clock: Clock): FeedCompaction {
  const limits = new NodeLimits(node.db, config.authority, config.time_zone, clock);
  return new FeedCompaction({
    db: node.db,
    replicated: replicatedTables(node.db),
    retentionMs: config.sync.feed_retention_days * 86_400_000,
    clock,
    limits,
  });
}

/** The hub compacts its feed once an hour, the first time an hour after it starts; a run still going skips the next. */
function startFeedCompaction(compaction: FeedCompaction, log: Logger): () => void {
  return repeatUnlessRunning(COMPACT_EVERY_MS, () =>
    compaction
      .run()
      .then((outcome) => log.info({ sync: 'compaction', ...outcome }, 'feed compacted'))
      .catch((error: unknown) => log.error({ err: error }, 'feed compaction failed')),
  );
}

/** A hub's parts beyond its features: the authority over what stores push, its sync endpoints and the tasks it runs while it serves. */
export interface Hub {
  /** The operation kinds stores may push, filled in from the features' endpoints. */
  kinds: OperationKinds;
  /** The apply of stores' pushes, which the sync endpoints call (a benchmark applies through it in bulk). */
  commands: HubCommands;
  held: HeldCommands;
  router: Router;
  /** What each store last said of itself, for the status pages and metrics. */
  contacts: StoreContacts;
  tasks: BackgroundTask[];
}

export function createHub(
  node: Node,
  config: Config,
  services: Pick<Services, 'ledger' | 'customersRepo' | 'tokensRepo' | 'passwordSetup' | 'nodes'>,
  clock: Clock,
  log: Logger,
  /** Whether snapshots are read on threads of their own (src/sync/hub/snapshot-threads.ts): a serving hub's are. */
  snapshotThreads: boolean,
): Hub {
  const kinds = new OperationKinds();
  const authority = createHubAuthority(node, config, services, kinds, clock);
  const contacts = new StoreContacts(clock);
  const compaction = createFeedCompaction(node, config, clock);
  const states = node.states!;
  return {
    kinds,
    commands: authority.commands,
    held: authority.held,
    router: createHubSyncRouter(node, config, services, authority, contacts, clock, log, snapshotThreads),
    contacts,
    tasks: [
      (taskLog) => startFeedCompaction(compaction, taskLog),
      (taskLog) => startStateSettling(states, node.writes, config.sync.settle_interval_seconds * 1000, taskLog),
    ],
  };
}
