/** The JSON columns of sync's tables (src/db/column-codecs.ts). */
import { parsedJson, typedJson, type ColumnCodecs } from '../db/column-codecs.js';
import { Operation, type CommandResult, type FeedChange, type RowChange } from './protocol/protocol.js';

/** Changes as the write path recorded them in the same transaction as their rows. */
const changes = typedJson<RowChange[]>();

export const syncColumns = {
  /** A row of the change feed as the write path recorded it (null for a delete: the column is). */
  'changes.row': typedJson<NonNullable<FeedChange['row']>>(),
  'outbox.changes': changes,
  'held_commands.changes': changes,
  /** A store's operation as the hub received it, validated then. */
  'held_commands.operation': parsedJson(Operation),
  /** The rows an applied command wrote, as the hub answered them. */
  'applied_commands.rows': typedJson<NonNullable<CommandResult['rows']>>(),
  /** One change a store could not apply whole, kept as the hub sent it. */
  'sync_deferred.change': typedJson<RowChange>(),
} satisfies ColumnCodecs;
