/**
 * The ledger of a node (src/loyalty/CONTEXT.md): its point and credit records and what keeps
 * them, built once for the node (src/root/services.ts) and used by points, checkout, purchases
 * and the hub: the records, the one builder of them, the one reader of balances, and how much
 * may be redeemed.
 */
import type { CreditsRepo } from './credits.repo.js';
import type { BalanceReader } from './balance-reader.js';
import type { LedgerRecords } from './ledger-records.js';
import type { RedemptionPolicy } from './offline-risk.js';
import type { PointsRepo } from './points.repo.js';

export interface Ledger {
  points: PointsRepo;
  credits: CreditsRepo;
  /** The one builder of point and credit records. */
  records: LedgerRecords;
  /** Every customer's balances (the node's one reader, `Node.balances`). */
  balances: BalanceReader;
  /** The offline limits on redeeming points and spending credit. */
  policy: RedemptionPolicy;
}
