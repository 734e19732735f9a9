/** Queries and answers of the wallet's overviews (2021 spec: /wallet/actions/…). */
import { z } from 'zod';
import { Text } from '../../core/schemas.js';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

/** The customer an overview is of: required in the enterprise interface; in the customer interface the logged-in one when left out. */
const OverviewCustomer = Text.optional().meta({
  description: 'Required in the enterprise interface; in the customer interface the logged-in customer when left out',
});

export const BalanceOverviewQuery = z.object({ customer_id: OverviewCustomer, date_from: Day.optional(), date_to: Day.optional() });
export type BalanceOverviewQuery = z.infer<typeof BalanceOverviewQuery>;

export const ExpirationOverviewQuery = z.object({ customer_id: OverviewCustomer });
export type ExpirationOverviewQuery = z.infer<typeof ExpirationOverviewQuery>;

/** A sum a store answers from local data (`X-Loyaltyd-Source: local`) only when it knows it: see the README's "What each node keeps". */
const Sum = (what: string) =>
  z
    .number()
    .optional()
    .meta({
      description: `${what}; left out of a store's local answer for an interval (date_from or date_to), which facts of other stores may fall in`,
    });

export const PointsOverviewAnswer = z.object({
  earned_points: Sum('Points earned in the interval'),
  redeemed_points: Sum('Points redeemed in the interval'),
  available_points: z.number(),
});
export type PointsOverviewAnswer = z.infer<typeof PointsOverviewAnswer>;
export const CreditsOverviewAnswer = z.object({
  earned_credits: Sum('Credit earned in the interval'),
  redeemed_credits: Sum('Credit redeemed in the interval'),
  available_credits: z.number(),
});
export type CreditsOverviewAnswer = z.infer<typeof CreditsOverviewAnswer>;
/** The first day anything expires (null when nothing does) and how much, and what expires this month. */
export const ExpirationOverviewAnswer = z.object({ next_amount: z.number(), next_date: Day.nullable(), current_month_amount: z.number() });
export type ExpirationOverviewAnswer = z.infer<typeof ExpirationOverviewAnswer>;
