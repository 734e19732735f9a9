/**
 * The first schema. Every replicated table has `id` (DESIGN §3 ids), `hlc` (the stamp of
 * the change that wrote the row, for last-writer-wins) and `last_change`. Money columns
 * end in `_minor` (integer minor units), points columns in `_milli` (thousandths).
 * Nested wire structures that are never filtered on are kept as JSON text.
 * The statements live in one file per area under ./0001/, applied in this order so that
 * tables come before the tables that reference them.
 */
import { sql as campaigns } from './0001/campaigns.js';
import { sql as catalog } from './0001/catalog.js';
import { sql as core } from './0001/core.js';
import { sql as customers } from './0001/customers.js';
import { sql as events } from './0001/events.js';
import { sql as purchases } from './0001/purchases.js';
import { sql as reservations } from './0001/reservations.js';
import { sql as rewards } from './0001/rewards.js';
import { sql as stores } from './0001/stores.js';
import { sql as sync } from './0001/sync.js';
import { sql as tokens } from './0001/tokens.js';

export const sql = [core, customers, stores, catalog, campaigns, rewards, purchases, reservations, events, tokens, sync].join('\n');
