/** What a store's sync works with, built once for the node (src/root/store.ts). */
import type { Db } from '../../db/open.js';
import type { WritePath } from '../../db/write-path.js';
import type { DeferredChanges } from './deferred-changes.js';
import type { HubClient } from './hub-client.js';
import type { Puller } from './puller.js';
import type { Pusher } from './pusher.js';
import type { Replay } from './replay.js';
import type { ReplicatedApply } from '../replicated-apply.js';
import type { Retention } from './retention.js';
import type { SyncState } from '../sync-state.js';

export interface SyncParts {
  db: Db;
  /** This node's id, the last part of the stamps it makes. */
  nodeId: string;
  /** The write path, whose queued commands nudge the agent. */
  writes: WritePath;
  replicated: ReplicatedApply;
  client: HubClient;
  state: SyncState;
  deferred: DeferredChanges;
  pusher: Pusher;
  puller: Puller;
  /** Rows a hub restored from a backup lost, sent again (src/sync/store/replay.ts). */
  replay: Replay;
  retention: Retention;
}
