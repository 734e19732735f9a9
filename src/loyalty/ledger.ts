/**
 * The points and credit ledger of a node (src/loyalty/CONTEXT.md), built once for the node
 * (src/root/services.ts) and used by points, checkout, purchases and the hub: its records, the one
 * builder of them, the one reader of balances, and how much may be redeemed.
 */
import type { CreditsRepo } from './credits.repo.js';
import type { CustomerLedgers } from './customer-ledgers.js';
import type { LedgerRecords } from './ledger-records.js';
import type { RedemptionPolicy } from './offline-risk.js';
import type { PointsRepo } from './points.repo.js';

export interface Ledger {
  points: PointsRepo;
  credits: CreditsRepo;
  /** The one builder of point and credit records. */
  records: LedgerRecords;
  /** Every customer's balances (the node's reader, `Node.ledgers`). */
  balances: CustomerLedgers;
  /** The offline limits on redeeming points and spending credit. */
  policy: RedemptionPolicy;
}
