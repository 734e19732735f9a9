/** The store↔hub wire format (src/sync/CONTEXT.md), one zod schema per structure. */
import { z } from 'zod';
import { HLC_STAMP } from '../../core/hlc.js';

/**
 * 3: a command is the operation a store served, which the hub runs again, and nothing else: no
 * row a store wrote goes up (DESIGN §5 "Authority"). Hub and stores upgrade together; the hub
 * serves no other protocol.
 */
export const PROTOCOL_VERSION = 3;
export const PROTOCOL_HEADER = 'x-loyaltyd-protocol';
/** A history read's caller, as the store authenticated them: base64url of a DelegatedPrincipal's JSON. */
export const PRINCIPAL_HEADER = 'x-loyaltyd-principal';
/** A customer-app login's caller's address, as the store asking the hub for the login saw it. */
export const CALLER_ADDRESS_HEADER = 'x-loyaltyd-caller-address';
/** A credential call's customer-app token as the store holds it, without its secret: base64url of a ForwardedToken's JSON. */
export const TOKEN_HEADER = 'x-loyaltyd-token';
export const SCHEMA_HEADER = 'x-loyaltyd-schema';
/** A store's figures for the hub's status page (src/sync/store/store-report.ts); optional. */
export const REPORT_HEADER = 'x-loyaltyd-report';

/** Batches are capped so a push never holds the hub's write lock for long (DESIGN §5). */
export const MAX_COMMANDS_PER_PUSH = 500;
export const MAX_PUSH_BYTES = 1_000_000;
export const MAX_CHANGES_PER_PULL = 5000;

const StoredValue = z.union([z.string(), z.number(), z.null()]);

export const RowChange = z.object({
  entity: z.string().regex(/^[a-z_]+$/),
  entity_id: z.string().min(1),
  op: z.enum(['insert', 'update', 'delete']),
  row: z.record(z.string().regex(/^[a-z_0-9]+$/), StoredValue).nullable(),
  hlc: z.string().min(1),
});
export type RowChange = z.infer<typeof RowChange>;

/** Who made an API call, as the store authenticated them: a Principal (src/http/principal.ts). */
export const DelegatedPrincipal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('anonymous') }),
  z.object({ kind: z.literal('user'), userId: z.string().min(1), scheme: z.enum(['bearer', 'legacy-basic']) }),
  z.object({ kind: z.literal('api-user'), apiUserId: z.string().min(1) }),
  z.object({ kind: z.literal('token'), apiUserId: z.string().min(1), tokenId: z.string().min(1), customerId: z.string().min(1).nullable() }),
]);

/**
 * A customer-app token's non-secret fields, which a store sends with a credential call it asks of
 * its hub for the token (src/sync/store/hub-sessions.ts): the token stays at that store until the
 * hub makes a session of it. Its id is the SHA-256 of the secret the app holds, never the secret.
 */
export const ForwardedToken = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{64}$/),
  api_user_id: z.string().min(1).max(100),
  external_application_id: z.string().min(1).max(100),
  device: z.string().max(10_000),
  setup: z.string().max(10_000),
  push_token: z.string().max(10_000).nullable(),
});
export type ForwardedToken = z.infer<typeof ForwardedToken>;

/** An API call as a store served it: its interface, its input as sent, its caller (src/core/operations.ts). */
export const RecordedCall = z.object({
  iface: z.enum(['enterprise', 'customer']),
  input: z.object({ params: z.unknown(), query: z.unknown(), body: z.unknown() }),
  principal: DelegatedPrincipal,
});

/**
 * What a command is: the call and every id it made, in the order it made them, its as-of time
 * (epoch ms, the store's clock when the call began), the stamps of the rows it wrote, in the
 * order it wrote them (the hub gives its own rows of the call the same stamps, where they are
 * the store's own and not ahead of the hub's clock, so that both fold the same facts in the
 * same order), and a digest of those rows (`rowsDigest`), by which the hub tells whether its
 * rows are the store's without the store sending them. A later command of the same call says
 * only that it continues it. A command written outside an API call carries no call, and the
 * hub rejects it.
 */
export const Operation = z.union([
  z.strictObject({ continues: z.literal(true) }),
  z.strictObject({
    call: RecordedCall.optional(),
    as_of: z.number().int().nonnegative().optional(),
    ids: z.array(z.string().regex(/^[0-9a-f]{26}$/)).max(10_000),
    stamps: z.array(z.string().regex(HLC_STAMP)).max(10_000).optional(),
    digest: z.string().max(64).optional(),
  }),
]);
export type Operation = z.infer<typeof Operation>;

/** A command on the wire: exactly these fields; one carrying rows (`changes`) or anything else does not parse. */
export const PushedCommand = z.strictObject({
  seq: z.number().int().positive(),
  command_id: z.string().min(1).max(64),
  kind: z.string().min(1).max(100),
  hlc: z.string().min(1),
  operation: Operation,
});
export type PushedCommand = z.infer<typeof PushedCommand>;

export const PushRequest = z.object({
  generation: z.string().min(1),
  commands: z.array(PushedCommand).max(MAX_COMMANDS_PER_PUSH),
});
export type PushRequest = z.infer<typeof PushRequest>;

/** A push as the hub first reads it: its commands are then checked one at a time (src/sync/hub/pushes-in-turns.ts). */
export const PushEnvelope = PushRequest.extend({ commands: z.array(z.unknown()).max(MAX_COMMANDS_PER_PUSH) });

/**
 * A command as the outbox keeps it: its payload, the row changes it made (the store's own, to
 * take back or swap, never sent) and its operation are JSON texts. A command queued by an earlier
 * version may carry no operation: it is sent with an empty one, which the hub rejects.
 */
export type OutboxCommand = Omit<PushedCommand, 'operation'> & { payload: string; changes: string; operation: string | null };

/** What a command queued without an operation is sent with. */
const NO_OPERATION = '{"ids":[]}';

/**
 * A PushRequest's JSON text, with each command's operation spliced in as the outbox keeps it
 * (JSON.stringify's text) instead of parsed and stringified again: a batch is written in one
 * piece on the event loop the tills wait on, and parsing and writing again a batch of 50 bills'
 * commands held it for milliseconds (test/bench/README.md).
 */
export function pushRequestText(generation: string, commands: OutboxCommand[]): string {
  return `{"generation":${JSON.stringify(generation)},"commands":[${commands.map(commandText).join(',')}]}`;
}

/** A ReplayedCommands JSON text, written as pushRequestText writes a push. */
export function replayRequestText(commands: OutboxCommand[], final: boolean): string {
  return `{"commands":[${commands.map(commandText).join(',')}],"final":${final}}`;
}

function commandText({ seq, command_id, kind, hlc, operation }: OutboxCommand): string {
  return `{"seq":${seq},"command_id":${JSON.stringify(command_id)},"kind":${JSON.stringify(kind)},"hlc":${JSON.stringify(hlc)},"operation":${operation ?? NO_OPERATION}}`;
}

/**
 * Whether the hub's rows of a command differ from the store's in what a reader sees: another set
 * of rows, or a row with another op or any value the store holds but its stamp (columns the store
 * does not hold, a schema behind, are not compared).
 */
export function rowsDiffer(store: readonly RowChange[], hub: readonly RowChange[]): boolean {
  if (store.length !== hub.length) return true;
  const key = (change: RowChange) => `${change.entity} ${change.entity_id}`;
  const hubRows = new Map(hub.map((change) => [key(change), change]));
  return store.some((change) => {
    const theirs = hubRows.get(key(change));
    if (!theirs || theirs.op !== change.op) return true;
    return Object.entries(change.row ?? {}).some(([column, value]) => !STAMP_COLUMNS.has(column) && (theirs.row?.[column] ?? null) !== value);
  });
}

const STAMP_COLUMNS: ReadonlySet<string> = new Set(['hlc', 'last_change']);

/**
 * The hub's answer to one command: *applied*; *rejected* (its node had no right to make it);
 * or *held* (past the chain's limits for its node, until an operator releases or voids it).
 * `rows`, when the hub's rows of an applied command differ from the store's (its computation,
 * a stamp brought back from the future): the store swaps its own for them.
 */
export const CommandResult = z.object({
  command_id: z.string(),
  seq: z.number().int(),
  status: z.enum(['applied', 'rejected', 'held']),
  reason: z.string().nullable(),
  rows: z.array(RowChange).optional(),
});
export type CommandResult = z.infer<typeof CommandResult>;

export const PushResponse = z.object({
  results: z.array(CommandResult),
  /** How far ahead of the hub's clock the store's newest stamp in the push was, past the tolerance; absent when it was not. */
  clock_skew_ms: z.number().int().optional(),
});
export type PushResponse = z.infer<typeof PushResponse>;

/** Commands a replay request carries at most (src/sync/store/replay.ts). */
export const MAX_REPLAYED_COMMANDS = 500;

/**
 * A store's acknowledged commands the hub lost to a restore, sent again (src/sync/store/replay.ts):
 * the hub runs each as it runs a pushed one, outside the store's sequence, and answers it as
 * before when it holds its result. One the hub cannot take yet because it names what the hub
 * does not hold (another store's customer, not sent back yet) is answered *waiting* and changes
 * nothing, unless the request is `final`: then it is held as a pushed one would be.
 */
export const ReplayedCommands = z.object({ commands: z.array(PushedCommand).min(1).max(MAX_REPLAYED_COMMANDS), final: z.boolean().default(false) });
export type ReplayedCommands = z.infer<typeof ReplayedCommands>;

/** Replayed commands as the hub first reads them: each is then checked as a pushed one (src/sync/hub/pushes-in-turns.ts). */
export const ReplayEnvelope = ReplayedCommands.extend({ commands: z.array(z.unknown()).min(1).max(MAX_REPLAYED_COMMANDS) });

export const ReplayedResult = CommandResult.extend({ status: z.enum(['applied', 'rejected', 'held', 'waiting']) });
export type ReplayedResult = z.infer<typeof ReplayedResult>;

export const ReplayedResults = z.object({ results: z.array(ReplayedResult) });
export type ReplayedResults = z.infer<typeof ReplayedResults>;

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
  /** Which history the feed tells (src/sync/hub/feed-identity.ts); absent from a hub older than it. */
  feed_id: z.string().optional(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/** The store has pushed every fact stamped up to this HLC stamp (src/loyalty/customer-states.ts). */
const PushedThrough = z.string().regex(HLC_STAMP).optional();

export const ChangesQuery = z.object({
  after: z.coerce.number().int().min(0),
  pushed_through: PushedThrough,
  /**
   * The identity of the feed the store's cursor was read from (src/sync/hub/feed-identity.ts).
   * A hub whose feed has another was restored from a backup since, and may have lost commands
   * the store counts in its `pushed_through`: it keeps no such report. Absent from a store of
   * an earlier release, whose report is kept.
   */
  feed_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(MAX_CHANGES_PER_PULL).default(1000),
});

/**
 * How a snapshot sends its rows (src/sync/hub/hub-feed.ts): `columns`, a table's column names
 * once and then a JSON array of values per row, is what this version's stores read; `rows`,
 * `{entity, row}` per line, is what the previous version's stores read.
 */
export const SnapshotFormat = z.enum(['rows', 'columns']);
export type SnapshotFormat = z.infer<typeof SnapshotFormat>;

/** A snapshot from its start, or resumed after a row of an entity. */
export const SnapshotQuery = z.object({
  entity: z.string().optional(),
  after_id: z.string().default(''),
  pushed_through: PushedThrough,
  format: SnapshotFormat.default('rows'),
});

/** The first line of a snapshot stream. */
export const SnapshotHeader = z.object({
  position: z.number().int(),
  schema_version: z.number().int(),
  /** Rows the snapshot will send, for progress. */
  total_rows: z.number().int(),
  feed_id: z.string().optional(),
  /** Set when the rows come in the `columns` format, which this version's stores need. */
  format: z.literal('columns').optional(),
  /** The hub's clock as the snapshot began, past the stamp of every row it sends (`columns` only). */
  clock: z.string().min(1).optional(),
  /**
   * The newest stamp of the asking store's commands the hub holds, '' when it holds none;
   * absent when it cannot tell (src/sync/store/replay.ts).
   */
  node_through: z.string().optional(),
});
export type SnapshotHeader = z.infer<typeof SnapshotHeader>;

/** In the `columns` format, the line that opens a table: the names of the values in its rows' arrays. */
export const SnapshotTable = z.object({ table: RowChange.shape.entity, columns: z.array(z.string().regex(/^[a-z_0-9]+$/)).min(1) });
export type SnapshotTable = z.infer<typeof SnapshotTable>;

/** In the `columns` format, a row: its values in the order of its table's columns. */
export const SnapshotValues = z.array(StoredValue);

/** The snapshot's last line: without it the stream was cut. */
export const SnapshotEnd = z.object({ end: z.literal(true) });

/** `GET /sync/v1/original-bill`: the bill a cancellation names, by store and bill number. */
export const OriginalBillQuery = z.object({ store_id: z.string().min(1), bill_number: z.string().min(1) });
