/** A store's parts that speak to its hub: the sync agent's rounds, and what it asks the hub while it serves the API. */
import type { Clock } from '../core/clock.js';
import { ConfigError, type Config } from '../core/config.js';
import { schemaVersion } from '../db/migrate.js';
import { hubTls } from './tls-files.js';
import type { SyncParts } from '../sync/store/sync-parts.js';
import { DeferredChanges } from '../sync/store/deferred-changes.js';
import { HubClient } from '../sync/store/hub-client.js';
import { FoldConflicts } from '../sync/fold-conflicts.js';
import type { Node } from './node.js';
import type { BackgroundTask } from '../features/feature.js';
import { SyncAgent } from '../sync/store/agent.js';
import { HubHistory } from '../sync/store/hub-history.js';
import { HubSessions } from '../sync/store/hub-sessions.js';
import { QueuePushed } from '../sync/store/queue-pushed.js';
import type { Db } from '../db/open.js';
import type { TokensService } from '../features/tokens/tokens.service.js';
import { Puller } from '../sync/store/puller.js';
import { Pusher } from '../sync/store/pusher.js';
import { CommandSettlement } from '../sync/store/command-settlement.js';
import { Statements } from '../db/statements.js';
import { Replay } from '../sync/store/replay.js';
import { Retention } from '../sync/store/retention.js';
import { SyncState } from '../sync/sync-state.js';
import { encodeReport, storeReporter } from '../sync/store/store-report.js';

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
 * Where a store with a hub asks its history reads first and makes its credential calls;
 * undefined elsewhere. Without node credentials there is no asking (`serve` refuses to start
 * so, through createStoreSync).
 */
export function createHubAsks(config: Config, db: Db, tokens: Pick<TokensService, 'forwarded'>): HubAsks | undefined {
  if (!config.node.name || !config.node.secret) return undefined;
  const client = hubClientOf(config);
  if (!client) return undefined;
  const timeoutMs = config.sync.history_timeout_ms;
  const pushed = new QueuePushed(db);
  return {
    history: new HubHistory(pushed, client, timeoutMs),
    sessions: new HubSessions(pushed, client, timeoutMs, (tokenId) => tokens.forwarded(tokenId)),
  };
}

/** A store's sync parts, or undefined for a store with no hub configured (standalone). */
export function createStoreSync(node: Node, config: Config, clock: Clock): SyncParts | undefined {
  const report = storeReporter(node.db, clock);
  const client = hubClientOf(config, () => encodeReport(report()));
  if (!client) return undefined;
  const state = new SyncState(node.db);
  const deferred = new DeferredChanges(node.db, state, clock);
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

/** The store's sync agent, as a task of the daemon: a round every `sync.interval_seconds` while it serves. */
export function syncAgentTask(sync: SyncParts, config: Config, clock: Clock): BackgroundTask {
  return (log) => {
    const agent = new SyncAgent(sync, clock, config.sync.interval_seconds * 1000, log);
    agent.start();
    return () => agent.stop();
  };
}
