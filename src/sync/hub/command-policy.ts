/**
 * The hub's check of a store's command before it applies it (DESIGN §5 "Ownership"): a
 * store's node secret lets it push what a store's API writes, not whatever it likes, so one
 * store's compromise does not rewrite the chain. A command is rejected, with the reason, and
 * listed like any rejection (src/sync/hub/hub-commands.ts) when
 *
 * - it writes a table a store's API does not write — users, api users, applications, nodes,
 *   program, rewards, stores, products, campaigns, the hub's published customer states — or
 *   changes a row a store only inserts (its facts), or deletes anything;
 * - it writes customers, or a customer's password hash, outside the customer commands, or a
 *   password hash of other parameters than the ones every node writes (src/auth/passwords.ts):
 *   a registration may set the new customer's password, hashed at the store, and no more;
 * - it inserts a row naming a store the node does not serve (`loyaltyd nodes add --store`):
 *   a bill, a reservation, a voucher's use, a customer or card registered there — and with
 *   the bill, the points it earned or spent;
 * - it logs a customer-app token in: a token starts anonymous, and only the hub makes a
 *   session of the chain (src/sync/store/hub-sessions.ts); a token's row may carry the customer the
 *   hub logged it in as, and no other;
 * - its stamps are malformed, come from more than one node, from an origin (the node part
 *   of a stamp) another node pushed first — each origin is bound to the node that first
 *   pushed it, so a store cannot speak for another — or from a reserved one: the hub's own, or
 *   another registered node's id (src/sync/hub/reserved-origins.ts), which binds to no one;
 * - a stamp is more than `sync.max_clock_skew_seconds` ahead of the hub's clock: a stamp from
 *   the future would win every last-writer-wins comparison and drag every clock with it.
 *
 * What this cannot tell: which stores a node registered without `--store` serves.
 */
import type { Statement } from 'better-sqlite3';
import { isOwnPasswordHash } from '../../auth/passwords.js';
import type { Clock } from '../../core/clock.js';
import { HLC_STAMP, msOfStamp, originOfStamp } from '../../core/hlc.js';
import type { Db } from '../../db/open.js';
import type { PushedCommand, RowChange } from '../protocol/protocol.js';
import { ReservedOrigins } from './reserved-origins.js';

type Op = RowChange['op'];

/**
 * What a store's commands may do to each table; any other table is the hub's alone. A
 * password-setup request is node-local but carried up: the hub sends the mail, and its secret
 * never comes back down to other stores.
 */
const STORE_WRITES: Record<string, readonly Op[]> = {
  purchases: ['insert'],
  purchase_items: ['insert'],
  purchase_assignments: ['insert'],
  point_records: ['insert'],
  credit_records: ['insert'],
  events: ['insert'],
  event_property_records: ['insert'],
  orders: ['insert'],
  product_reservations: ['insert', 'update'],
  reservation_codes: ['insert'],
  reservation_state_changes: ['insert'],
  // A voucher made from a reward (its points cost a redemption among the point records), its
  // use on a bill and its release by a cancellation.
  vouchers: ['insert'],
  voucher_applications: ['insert'],
  voucher_releases: ['insert'],
  auth_tokens: ['insert', 'update'],
  password_setup_requests: ['insert'],
  customers: ['insert', 'update'],
  customer_source_records: ['insert'],
  cards: ['insert', 'update'],
  tokens: ['insert', 'update'],
};

/**
 * The kinds a store still pushes as rows in protocol 2, checked by this policy: the writes
 * whose calls hold a credential no outbox may keep — a registration's password, a token's id,
 * a login code, a password-setup address to check — so the hub cannot run them again
 * (src/sync/hub/operation-kinds.ts lists those it does). A protocol-2 command of any other kind
 * is rejected.
 */
export const ROW_KINDS: ReadonlySet<string> = new Set([
  'customers.create',
  'tokens.create',
  'tokens.update',
  'tokens.logout',
  'tokens.send-password-setup-email',
  'auth-tokens.issue',
  'auth-tokens.login',
]);

/** The kind of a row a protocol-1 store replays to a hub restored from a backup. */
export const REPLAY_KIND = 'sync.replay';

/**
 * The commands that write a customer's row, password hash included (registration, profile),
 * and a replay: it carries a customer row as the store's own command left it, which gives a
 * store no write it could not make with `customers.update`.
 */
const CUSTOMER_COMMANDS = new Set(['customers.create', 'customers.update', REPLAY_KIND]);

export class CommandRejected extends Error {}

/** The reason a command is answered rejected with: its CommandRejected's, or what a constraint it broke means; any other error is thrown on. */
export function rejectionReason(error: unknown): string {
  if (error instanceof CommandRejected) return error.message;
  const code = (error as { code?: string }).code ?? '';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'not_found';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'already_exists';
  if (code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_ERROR') return 'not_allowed_value';
  throw error;
}

/**
 * Why the hub would refuse a command writing these changes, whoever stamped them; undefined
 * when it would not. A store with a hub asks before it queues a write (src/root/node.ts), so the
 * API answers at once instead of taking the write back after the next push.
 */
export function storeRefusal(
  kind: string,
  changes: readonly { entity: string; op: Op; row: Readonly<Record<string, unknown>> | null }[],
): string | undefined {
  for (const change of changes) {
    const allowed = STORE_WRITES[change.entity];
    if (!allowed) return `a store does not write ${change.entity}`;
    if (!allowed.includes(change.op)) return `a store does not ${change.op} ${change.entity}`;
    if (change.entity === 'customers' && !CUSTOMER_COMMANDS.has(kind)) return `${kind} does not write customers`;
    const hash = change.entity === 'customers' ? change.row?.password_hash : undefined;
    if (typeof hash === 'string' && !isOwnPasswordHash(hash)) return 'a password hash of other parameters than the hub writes';
    if (change.entity === 'tokens' && change.op === 'insert' && change.row?.customer_id) return 'a token starts anonymous: the hub logs it in';
  }
  return undefined;
}

export class CommandPolicy {
  private readonly ownerOf: Statement<[string], string>;
  private readonly bind: Statement<[string, string, string]>;
  private readonly storesOf: Statement<[string], string>;
  private readonly sessionOf: Statement<[string], string | null>;
  private readonly owners = new Map<string, string>();
  private readonly reserved: ReservedOrigins;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly maxSkewMs: number,
  ) {
    this.ownerOf = db.prepare<[string], string>('SELECT node_id FROM sync_node_origins WHERE origin = ?').pluck();
    this.bind = db.prepare('INSERT OR IGNORE INTO sync_node_origins (origin, node_id, first_seen_at) VALUES (?, ?, ?)');
    this.storesOf = db.prepare<[string], string>('SELECT store_id FROM node_stores WHERE node_id = ?').pluck();
    this.sessionOf = db.prepare<[string], string | null>('SELECT customer_id FROM tokens WHERE id = ?').pluck();
    this.reserved = new ReservedOrigins(db);
  }

  /**
   * Throws CommandRejected, with the reason, unless the node may apply this command. Runs in
   * the command's savepoint. `skew` 'rejects' a stamp too far ahead (protocol 1); 'passes' it
   * for the caller to bring back to the hub's time (src/sync/hub/hub-operations.ts).
   */
  check(nodeId: string, command: Pick<PushedCommand, 'kind' | 'hlc' | 'changes'>, skew: 'rejects' | 'passes' = 'rejects'): void {
    const origin = this.originOf(nodeId, command.hlc, skew);
    for (const change of command.changes) {
      const what = `${change.entity} ${change.entity_id}`;
      if (this.checkStamp(change.hlc, what, skew) !== origin) throw new CommandRejected(`${what} is stamped by another node than its command`);
    }
    const refusal = storeRefusal(command.kind, command.changes);
    if (refusal) throw new CommandRejected(refusal);
    this.checkStores(nodeId, command.changes);
    this.checkSessions(command.changes);
  }

  /** The origin of a command's stamp, bound to the node that first pushed it; throws CommandRejected when another node speaks for it. */
  originOf(nodeId: string, stamp: string, skew: 'rejects' | 'passes' = 'passes'): string {
    const origin = this.checkStamp(stamp, 'the command', skew);
    const refusal = this.reserved.refusal(nodeId, origin);
    if (refusal !== undefined) throw new CommandRejected(refusal);
    // A binding committed never changes: each is read once. One made here may still be taken
    // back with its command's savepoint, so it is read again next time.
    const owner = this.owners.get(origin) ?? this.ownerOf.get(origin);
    if (owner !== undefined && owner !== nodeId) throw new CommandRejected(`stamped as node ${origin}, which another node speaks for`);
    if (owner === undefined) this.bind.run(origin, nodeId, new Date(this.clock()).toISOString());
    else this.owners.set(origin, owner);
    return origin;
  }

  /** Throws CommandRejected when the node is bound to stores and this is not one of them. */
  checkStore(nodeId: string, storeId: string, what: string): void {
    const served = this.storesOf.all(nodeId);
    if (served.length > 0 && !served.includes(storeId)) throw new CommandRejected(`${what} names store ${storeId}, which this node does not serve`);
  }

  /** A token's row a store writes names no customer but the one the hub logged it in as. */
  private checkSessions(changes: readonly RowChange[]): void {
    for (const change of changes) {
      const customerId = change.entity === 'tokens' ? change.row?.customer_id : undefined;
      if (customerId !== undefined && customerId !== null && customerId !== (this.sessionOf.get(change.entity_id) ?? null)) {
        throw new CommandRejected(`tokens ${change.entity_id} is logged in by the hub, not by a store`);
      }
    }
  }

  /**
   * Forgets the bindings read so far, for a transaction that rolled back: one it made and a
   * later command read back is gone with it, and is read again (and made again) next time.
   */
  forgetOwners(): void {
    this.owners.clear();
  }

  /** A node bound to stores inserts rows of those stores only. */
  private checkStores(nodeId: string, changes: readonly RowChange[]): void {
    for (const change of changes) {
      const storeId = change.op === 'insert' ? change.row?.store_id : undefined;
      if (storeId !== undefined && storeId !== null) this.checkStore(nodeId, String(storeId), `${change.entity} ${change.entity_id}`);
    }
  }

  /** The stamp's origin; throws when it is malformed or, where `skew` rejects, too far ahead of the hub's clock. */
  private checkStamp(stamp: string, what: string, skew: 'rejects' | 'passes'): string {
    if (!HLC_STAMP.test(stamp)) throw new CommandRejected(`${what} has a malformed stamp`);
    const ahead = msOfStamp(stamp) - this.clock();
    if (skew === 'rejects' && ahead > this.maxSkewMs) {
      throw new CommandRejected(`${what} is stamped ${Math.round(ahead / 1000)} s ahead of the hub's clock (at most ${this.maxSkewMs / 1000} s)`);
    }
    return originOfStamp(stamp);
  }
}
