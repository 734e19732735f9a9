import { z } from 'zod';
import { Paging } from '../../core/paging.js';
import { Id, Text } from '../../core/schemas.js';
import { Points } from '../../money.js';

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

export const PointsQuery = Paging.extend({
  customer_id: Text.optional(),
  point_type_id: Text.optional(),
  create_point_time_from: Timestamp.optional(),
  create_point_time_to: Timestamp.optional(),
});
export type PointsQuery = z.infer<typeof PointsQuery>;

export const PointPath = z.object({ point_id: Text });
