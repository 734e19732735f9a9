/** Queries of the wallet's overviews (2021 spec: /wallet/actions/…). */
import { z } from 'zod';
import { Text } from '../../core/schemas.js';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const BalanceOverviewQuery = z.object({ customer_id: Text, date_from: Day.optional(), date_to: Day.optional() });
export type BalanceOverviewQuery = z.infer<typeof BalanceOverviewQuery>;

export const ExpirationOverviewQuery = z.object({ customer_id: Text });
export type ExpirationOverviewQuery = z.infer<typeof ExpirationOverviewQuery>;
