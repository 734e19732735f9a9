import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, StoreTimestamp, Text } from '../../core/schemas.js';
import { Points } from '../../core/money.js';

const PositivePoints = Points.refine((milli) => milli > 0, { message: 'must be more than 0', params: { reason: 'not_allowed_value' } });

export const AssignPoints = z.object({ amount: PositivePoints, customer_id: Id, partner_id: z.string().optional() });
export type AssignPoints = z.infer<typeof AssignPoints>;

export const ReducePoints = AssignPoints;
export type ReducePoints = AssignPoints;

export const TransferPoints = z.object({
  original_customer_id: Id,
  new_customer_id: Id,
  amount: PositivePoints,
  point_type_id: z.string().optional(),
});
export type TransferPoints = z.infer<typeof TransferPoints>;

const Timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be YYYY-MM-DD HH:MM:SS');

/** The fields this list sorts by: those an index keeps in order. */
export const POINT_SORT_FIELDS = ['point_id'] as const;
export const PointsQuery = SortedPaging(POINT_SORT_FIELDS).extend({
  customer_id: Text.optional(),
  point_type_id: Text.optional(),
  create_point_time_from: Timestamp.optional(),
  create_point_time_to: Timestamp.optional(),
});
export type PointsQuery = z.infer<typeof PointsQuery>;

export const PointPath = z.object({ point_id: Text });

/** Point as interface.md shows it, as the API answers it; a redemption's assigned points are negative. */
export const PointAnswer = z.object({
  point_id: z.string(),
  customer_id: z.string(),
  assigned_points: z.number(),
  available_points: z.number(),
  point_type_id: z.string(),
  partner_id: z.string(),
  valid_to: StoreTimestamp.nullable(),
  state: z.number().int(),
});
export type PointAnswer = z.infer<typeof PointAnswer>;
export const PointsAnswer = Collection('points', PointAnswer);
export type PointsAnswer = z.infer<typeof PointsAnswer>;
