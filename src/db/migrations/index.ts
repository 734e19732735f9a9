/**
 * The database's schema, one migration a file (`NNNN-name.ts`, exporting its SQL), listed here in
 * order and applied by `src/db/migrate.ts`, each in its own transaction; `0001/` holds the first
 * migration's statements, one file per area. A released migration never changes: a schema change is
 * a new migration appended to the list. `postgres/` holds PostgreSQL's schema: a baseline of the
 * first migrations, then each later migration's `postgres` SQL (src/decisions/0106).
 */
import * as initial from './0001-initial.js';
import * as stampIndexes from './0002-stamp-indexes.js';
import * as recommendationModel from './0003-recommendation-model.js';
import * as creditRecords from './0004-credit-records.js';
import * as checkoutCoveringIndexes from './0005-checkout-covering-indexes.js';
import * as customerLedgers from './0006-customer-ledgers.js';
import * as syncDeferred from './0007-sync-deferred.js';
import * as dropUnreadIndexes from './0008-drop-unread-indexes.js';
import * as customerStates from './0009-customer-states.js';
import * as voucherReleases from './0010-voucher-releases.js';
import * as creditOrigins from './0011-credit-origins.js';
import * as nodeStores from './0012-node-stores.js';
import * as outboxIndexes from './0013-outbox-indexes.js';
import * as nodeProgressStamps from './0014-node-progress-stamps.js';
import * as creditBalanceStamps from './0015-credit-balance-stamps.js';
import * as longLedgers from './0016-long-ledgers.js';
import * as newestChanges from './0017-newest-changes.js';
import * as assignmentsByCustomer from './0018-assignments-by-customer.js';
import * as voucherApplicationsByPurchase from './0019-voucher-applications-by-purchase.js';
import * as programHistory from './0020-program-history.js';
import * as operations from './0021-operations.js';
import * as storeSessions from './0022-store-sessions.js';
import * as sortIndexes from './0023-sort-indexes.js';
import * as acknowledgedCommands from './0024-acknowledged-commands.js';
import * as stateTotals from './0025-state-totals.js';
import * as purchasesByStoreTime from './0026-purchases-by-store-time.js';
import * as deferredChangesByRow from './0027-deferred-changes-by-row.js';
import * as conflictsByTime from './0028-conflicts-by-time.js';
import * as usersByStore from './0029-users-by-store.js';
import * as nodeDays from './0030-node-days.js';
import * as tokensByNode from './0031-tokens-by-node.js';
import * as operationTotalsTriggers from './0032-operation-totals-triggers.js';

/**
 * Migrations are immutable once released: 0001 ships with the first landed version, so
 * every later schema change is a new numbered migration appended here.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * The same change in PostgreSQL's spelling, for a hub on PostgreSQL; every migration after
   * the PostgreSQL baseline (src/db/migrations/postgres/) has one.
   */
  postgres?: string;
  /**
   * It changes only what stays on the node — indexes, triggers, derived and node-local
   * tables — and no replicated table or column: a store without it reads and writes the rows
   * its hub does, so it does not count in how far behind its hub a store may be (servesSchema).
   */
  local?: true;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: 'initial', sql: initial.sql },
  { version: 2, name: 'stamp-indexes', sql: stampIndexes.sql, local: true },
  { version: 3, name: 'recommendation-model', sql: recommendationModel.sql },
  { version: 4, name: 'credit-records', sql: creditRecords.sql },
  { version: 5, name: 'checkout-covering-indexes', sql: checkoutCoveringIndexes.sql, local: true },
  { version: 6, name: 'customer-ledgers', sql: customerLedgers.sql },
  { version: 7, name: 'sync-deferred', sql: syncDeferred.sql, local: true },
  { version: 8, name: 'drop-unread-indexes', sql: dropUnreadIndexes.sql, local: true },
  { version: 9, name: 'customer-states', sql: customerStates.sql },
  { version: 10, name: 'voucher-releases', sql: voucherReleases.sql },
  { version: 11, name: 'credit-origins', sql: creditOrigins.sql },
  { version: 12, name: 'node-stores', sql: nodeStores.sql, local: true },
  { version: 13, name: 'outbox-indexes', sql: outboxIndexes.sql, local: true },
  { version: 14, name: 'node-progress-stamps', sql: nodeProgressStamps.sql, local: true },
  { version: 15, name: 'credit-balance-stamps', sql: creditBalanceStamps.sql, local: true },
  { version: 16, name: 'long-ledgers', sql: longLedgers.sql, local: true },
  { version: 17, name: 'newest-changes', sql: newestChanges.sql, local: true },
  { version: 18, name: 'assignments-by-customer', sql: assignmentsByCustomer.sql, local: true },
  { version: 19, name: 'voucher-applications-by-purchase', sql: voucherApplicationsByPurchase.sql, local: true },
  { version: 20, name: 'program-history', sql: programHistory.sql, local: true },
  { version: 21, name: 'operations', sql: operations.sql, local: true },
  { version: 22, name: 'store-sessions', sql: storeSessions.sql, local: true },
  { version: 23, name: 'sort-indexes', sql: sortIndexes.sql, local: true },
  { version: 24, name: 'acknowledged-commands', sql: acknowledgedCommands.sql, local: true },
  { version: 25, name: 'state-totals', sql: stateTotals.sql },
  { version: 26, name: 'purchases-by-store-time', sql: purchasesByStoreTime.sql, local: true },
  { version: 27, name: 'deferred-changes-by-row', sql: deferredChangesByRow.sql, local: true },
  { version: 28, name: 'conflicts-by-time', sql: conflictsByTime.sql, local: true },
  { version: 29, name: 'users-by-store', sql: usersByStore.sql },
  { version: 30, name: 'node-days', sql: nodeDays.sql, local: true },
  { version: 31, name: 'tokens-by-node', sql: tokensByNode.sql },
  { version: 32, name: 'operation-totals-triggers', sql: operationTotalsTriggers.sql, postgres: operationTotalsTriggers.postgres, local: true },
];
