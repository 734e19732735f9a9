/** The store↔hub wire format (src/sync/CONTEXT.md), one zod schema per structure. */
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;
export const PROTOCOL_HEADER = 'x-loyaltyd-protocol';
/** A history read's caller, as the store authenticated them: base64url of a DelegatedPrincipal's JSON. */
export const PRINCIPAL_HEADER = 'x-loyaltyd-principal';
export const SCHEMA_HEADER = 'x-loyaltyd-schema';
/** A store's figures for the hub's status page (src/sync/store-report.ts); optional. */
export const REPORT_HEADER = 'x-loyaltyd-report';

/** Batches are capped so a push never holds the hub's write lock for long (DESIGN §5). */
export const MAX_COMMANDS_PER_PUSH = 500;
export const MAX_PUSH_BYTES = 1_000_000;
export const MAX_CHANGES_PER_PULL = 5000;

/** The first schema whose stores read balances from customer states and hold only their own facts. */
export const FIRST_SCOPED_SCHEMA = 9;

const StoredValue = z.union([z.string(), z.number(), z.null()]);

export const RowChange = z.object({
  entity: z.string().regex(/^[a-z_]+$/),
  entity_id: z.string().min(1),
  op: z.enum(['insert', 'update', 'delete']),
  row: z.record(z.string().regex(/^[a-z_0-9]+$/), StoredValue).nullable(),
  hlc: z.string().min(1),
});
export type RowChange = z.infer<typeof RowChange>;

export const PushedCommand = z.object({
  seq: z.number().int().positive(),
  command_id: z.string().min(1),
  kind: z.string().min(1),
  payload: z.unknown(),
  changes: z.array(RowChange),
  hlc: z.string().min(1),
});
export type PushedCommand = z.infer<typeof PushedCommand>;

export const PushRequest = z.object({
  generation: z.string().min(1),
  commands: z.array(PushedCommand).max(MAX_COMMANDS_PER_PUSH),
});
export type PushRequest = z.infer<typeof PushRequest>;

export const CommandResult = z.object({
  command_id: z.string(),
  seq: z.number().int(),
  status: z.enum(['applied', 'rejected']),
  reason: z.string().nullable(),
});
export type CommandResult = z.infer<typeof CommandResult>;

export const PushResponse = z.object({ results: z.array(CommandResult) });
export type PushResponse = z.infer<typeof PushResponse>;

export const FeedChange = RowChange.extend({ seq: z.number().int() });
export type FeedChange = z.infer<typeof FeedChange>;

export const ChangesPage = z.object({
  changes: z.array(FeedChange),
  /** Where the next page starts: past the changes sent and any node-local ones skipped. */
  cursor: z.number().int(),
  /** The newest seq of the feed when the page was read, for lag. */
  last_seq: z.number().int(),
  has_more: z.boolean(),
  /** The wall time of the newest change in the page, for lag in seconds. */
  hub_time: z.string(),
  /** Which history the feed tells (src/sync/feed-identity.ts); absent from a hub older than it. */
  feed_id: z.string().optional(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/** The store has pushed every fact stamped up to this HLC stamp (src/loyalty/customer-states.ts). */
const PushedThrough = z.string().regex(/^[0-9a-f]{12}-[0-9a-f]{4}-[0-9a-z]+$/).optional();

export const ChangesQuery = z.object({
  after: z.coerce.number().int().min(0),
  pushed_through: PushedThrough,
  limit: z.coerce.number().int().min(1).max(MAX_CHANGES_PER_PULL).default(1000),
});

/** A snapshot from its start, or resumed after a row of an entity. */
export const SnapshotQuery = z.object({
  entity: z.string().optional(),
  after_id: z.string().default(''),
  pushed_through: PushedThrough,
});

/** The first line of a snapshot stream; every further line is a SnapshotRow. */
export const SnapshotHeader = z.object({
  position: z.number().int(),
  schema_version: z.number().int(),
  /** Rows the snapshot will send, for progress. */
  total_rows: z.number().int(),
  feed_id: z.string().optional(),
});
export type SnapshotHeader = z.infer<typeof SnapshotHeader>;

export const SnapshotRow = z.object({ entity: z.string(), row: z.record(z.string(), StoredValue) });
export type SnapshotRow = z.infer<typeof SnapshotRow>;

/**
 * Whether a snapshot line's record has SnapshotRow's shape, checked by hand: a bootstrap
 * reads millions of them, and SnapshotRow.parse cost twice JSON.parse of the line, a third of
 * the load's time. The values are checked again by the STRICT
 * tables they are written to.
 */
export function isSnapshotRow(record: unknown): record is SnapshotRow {
  if (typeof record !== 'object' || record === null) return false;
  const { entity, row } = record as { entity?: unknown; row?: unknown };
  return typeof entity === 'string' && typeof row === 'object' && row !== null && !Array.isArray(row);
}

/** Who a store asks a history read for (src/http/history-reads.ts): a Principal. */
export const DelegatedPrincipal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('anonymous') }),
  z.object({ kind: z.literal('user'), userId: z.string().min(1), scheme: z.enum(['bearer', 'legacy-basic']) }),
  z.object({ kind: z.literal('api-user'), apiUserId: z.string().min(1) }),
  z.object({ kind: z.literal('token'), apiUserId: z.string().min(1), tokenId: z.string().min(1), customerId: z.string().min(1).nullable() }),
]);

/** `GET /sync/v1/original-bill`: the bill a cancellation names, by store and bill number. */
export const OriginalBillQuery = z.object({ store_id: z.string().min(1), bill_number: z.string().min(1) });
