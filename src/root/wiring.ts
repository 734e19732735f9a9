/** Builds a hub's sync endpoints or a store's sync parts from a node and its config. */
import type { Router } from 'express';
import type { Clock } from '../core/clock.js';
import { ConfigError, type Config } from '../core/config.js';
import { repeatUnlessRunning } from '../core/repeat.js';
import { schemaVersion } from '../db/migrate.js';
import { databaseFile, type Node } from './node.js';
import { hubTls } from './tls-files.js';
import type { SyncParts } from '../sync/store/sync-parts.js';
import { DeferredChanges } from '../sync/store/deferred-changes.js';
import { FoldConflicts } from '../sync/fold-conflicts.js';
import { HubClient } from '../sync/store/hub-client.js';
import { HubCommands } from '../sync/hub/hub-commands.js';
import { ClockSkews } from '../sync/hub/clock-skews.js';
import { HeldCommands } from '../sync/hub/held-commands.js';
import { HubOperations } from '../sync/hub/hub-operations.js';
import { NodeLimits } from '../sync/hub/node-limits.js';
import type { OperationKinds } from '../sync/hub/operation-kinds.js';
import { DelegatedPrincipals } from '../sync/hub/delegated-principals.js';
import { FeedCompaction } from '../sync/hub/feed-compaction.js';
import { completeCancellations } from '../features/checkout/cancellations.js';
import { CheckoutRepo } from '../features/checkout/checkout.repo.js';
import { OriginalBills } from '../features/checkout/original-bills.js';
import { HubFeed } from '../sync/hub/hub-feed.js';
import { HubHistory } from '../sync/store/hub-history.js';
import { HubSessions } from '../sync/store/hub-sessions.js';
import { QueuePushed } from '../sync/store/queue-pushed.js';
import type { Db } from '../db/open.js';
import type { TokensService } from '../features/tokens/tokens.service.js';
import { NodeClocks } from '../sync/hub/node-clocks.js';
import { hubRouter } from '../sync/hub/hub-routes.js';
import { Puller } from '../sync/store/puller.js';
import { Pusher } from '../sync/store/pusher.js';
import { CommandSettlement } from '../sync/store/command-settlement.js';
import { Statements } from '../db/statements.js';
import { Replay } from '../sync/store/replay.js';
import { Retention } from '../sync/store/retention.js';
import { replicatedTables } from '../sync/replicated-tables.js';
import { CommandPolicy } from '../sync/hub/command-policy.js';
import { CommandEffects } from '../sync/hub/command-effects.js';
import { listDuplicateRegistrations } from '../sync/hub/duplicate-registrations.js';
import { checkPasswordSetups, registerPasswordSetupEffect, type PasswordSetupMail } from '../features/tokens/password-setup.effect.js';
import type { Logger } from 'pino';
import type { Services } from './services.js';
import { SyncState } from '../sync/sync-state.js';
import type { StoreContacts } from '../sync/hub/store-contacts.js';
import { encodeReport, storeReporter } from '../sync/store/store-report.js';

/** The hub's authority over what stores push (DESIGN §5 "Authority"): the commands' apply and the operations it holds. */
export interface HubAuthority {
  commands: HubCommands;
  held: HeldCommands;
}

export function createHubAuthority(
  node: Node,
  config: Config,
  services: Pick<Services, 'mailer' | 'ledger' | 'customersRepo' | 'tokensRepo'>,
  kinds: OperationKinds,
  clock: Clock,
): HubAuthority {
  if (!node.states) throw new Error('a hub node publishes customer states');
  const maxSkewMs = config.sync.max_clock_skew_seconds * 1000;
  const policy = new CommandPolicy(node.db, clock, maxSkewMs);
  const limits = new NodeLimits(node.db, config.authority, config.time_zone);
  const principals = new DelegatedPrincipals(node.db, services.tokensRepo);
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
  const effects = hubEffects({
    mailer: services.mailer,
    writes: node.writes,
    customers: services.customersRepo,
    requests: services.tokensRepo,
    setupUrl: config.mail.password_setup_url,
    clock,
  });
  const completions = [
    completeCancellations(originals, services.ledger.records, node.writes),
    checkPasswordSetups(services.customersRepo),
    listDuplicateRegistrations(node.db, node.newId, clock),
  ];
  const commands = new HubCommands({
    db: node.db,
    writes: node.writes,
    replicated: node.replicated,
    policy,
    conflicts,
    effects,
    states: node.states,
    completions,
    clock,
    operations,
    holds: held,
    skews: new ClockSkews(node.db, node.newId),
    maxSkewMs,
  });
  return { commands, held };
}

export function createHubSyncRouter(
  node: Node,
  config: Config,
  services: Pick<Services, 'nodes' | 'ledger' | 'tokensRepo'>,
  authority: HubAuthority,
  contacts: StoreContacts,
  clock: Clock,
  log: Logger,
): Router {
  const tables = replicatedTables(node.db);
  const originals = new OriginalBills(new CheckoutRepo(node.db), services.ledger);
  return hubRouter({
    nodes: services.nodes,
    log,
    contacts,
    clock,
    commands: authority.commands,
    acceptsRowProtocol: () => acceptsRowProtocol(node, config, clock),
    originals,
    principals: new DelegatedPrincipals(node.db, services.tokensRepo),
    feed: new HubFeed({
      db: node.db,
      databaseFile: databaseFile(config.data_dir),
      replicated: tables,
      schemaVersion: schemaVersion(),
      stamp: () => node.hlc.now(),
    }),
    clocks: new NodeClocks(node.db, node.hlc, clock),
    schemaVersion: schemaVersion(),
    requireClientCertificate: config.http.tls?.client_certificates === 'sync',
  });
}

/** Whether the hub still serves protocol-1 stores: for `sync.protocol_1_days` after it first spoke protocol 2. */
function acceptsRowProtocol(node: Node, config: Config, clock: Clock): boolean {
  const since = node.db.prepare<[], string>("SELECT value FROM meta WHERE key = 'protocol_2_since'").pluck().get();
  return since !== undefined && config.sync.protocol_1_days > 0 && clock() < Date.parse(since) + config.sync.protocol_1_days * 86_400_000;
}

/** What the hub does after a store's commands beyond their rows, as the features that own them register it. */
function hubEffects(mail: PasswordSetupMail): CommandEffects {
  const effects = new CommandEffects();
  registerPasswordSetupEffect(effects, mail);
  return effects;
}

const COMPACT_EVERY_MS = 3_600_000;

/** The hub's feed compaction. */
export function createFeedCompaction(node: Node, config: Config, clock: Clock): FeedCompaction {
  const limits = new NodeLimits(node.db, config.authority, config.time_zone);
  return new FeedCompaction({
    db: node.db,
    replicated: replicatedTables(node.db),
    retentionMs: config.sync.feed_retention_days * 86_400_000,
    clock,
    limits,
  });
}

/** The hub compacts its feed once an hour, the first time an hour after it starts; a run still going skips the next. */
export function startFeedCompaction(compaction: FeedCompaction, log: Logger): () => void {
  return repeatUnlessRunning(COMPACT_EVERY_MS, () =>
    compaction
      .run()
      .then((outcome) => log.info({ sync: 'compaction', ...outcome }, 'feed compacted'))
      .catch((error: unknown) => log.error({ err: error }, 'feed compaction failed')),
  );
}

/** A client of the store's hub, or undefined for a hub or a store with no hub configured (standalone). */
function hubClientOf(config: Config, report?: () => string): HubClient | undefined {
  if (config.mode !== 'store' || !config.hub.url) return undefined;
  if (!config.node.name || !config.node.secret) {
    throw new ConfigError('config keys node.name and node.secret: required when hub.url is set (from `loyaltyd nodes add` on the hub)');
  }
  const tls = hubTls(config);
  return new HubClient({
    url: config.hub.url,
    nodeName: config.node.name,
    nodeSecret: config.node.secret,
    schemaVersion: schemaVersion(),
    report,
    ...(tls ? { tls } : {}),
  });
}

/** What a store with a hub asks it while it serves the API. */
export interface HubAsks {
  history: HubHistory;
  sessions: HubSessions;
}

/**
 * Where a store with a hub asks its history reads and makes its customer-app logins first;
 * undefined elsewhere. Without node credentials there is no asking (`serve` refuses to start
 * so, through createStoreSync).
 */
export function createHubAsks(config: Config, db: Db, tokens: Pick<TokensService, 'adoptChainSession'>): HubAsks | undefined {
  if (!config.node.name || !config.node.secret) return undefined;
  const client = hubClientOf(config);
  if (!client) return undefined;
  const timeoutMs = config.sync.history_timeout_ms;
  const pushed = new QueuePushed(db);
  return {
    history: new HubHistory(pushed, client, timeoutMs),
    sessions: new HubSessions(pushed, client, timeoutMs, (tokenId, customerId) => tokens.adoptChainSession(tokenId, customerId)),
  };
}

/** A store's sync parts, or undefined for a store with no hub configured (standalone). */
export function createStoreSync(node: Node, config: Config, clock: Clock): SyncParts | undefined {
  const report = storeReporter(node.db, clock);
  const client = hubClientOf(config, () => encodeReport(report()));
  if (!client) return undefined;
  const state = new SyncState(node.db);
  const deferred = new DeferredChanges(node.db, clock);
  const settlement = new CommandSettlement(node.db, new Statements(node.db), node.newId);
  return {
    db: node.db,
    nodeId: node.identity.nodeId,
    writes: node.writes,
    replicated: node.replicated,
    client,
    state,
    pusher: new Pusher({ db: node.db, client, state, stamp: () => node.hlc.now(), clock, settlement }),
    deferred,
    puller: new Puller({
      db: node.db,
      replicated: node.replicated,
      client,
      state,
      newId: node.newId,
      conflicts: new FoldConflicts(node.db, node.balances, node.newId, clock),
      deferred,
      clock,
    }),
    replay: new Replay({ db: node.db, state, client, settlement, clock, retryMs: config.offline.max_age_hours * 3_600_000 }),
    retention: new Retention({ db: node.db, state, nodeId: node.identity.nodeId, keepMs: config.retention.local_days * 86_400_000, clock }),
  };
}
