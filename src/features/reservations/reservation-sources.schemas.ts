import { z } from 'zod';
import { Id, LookupState, Text } from '../../core/schemas.js';

export const ReservationSourcePath = z.object({ product_reservation_source_id: z.string() });

export const ReservationSourceRow = z.object({
  id: z.string(),
  name: z.string(),
  state: z.number(),
  last_change: z.string(),
});
export type ReservationSourceRow = z.infer<typeof ReservationSourceRow>;

/** A reservation source as master data loads it (`loyaltyd import product-reservation-sources`); the API only reads them. */
export const ReservationSourceRecord = z.object({
  product_reservation_source_id: Id.optional(),
  name: Text,
  state: LookupState.optional(),
});
export type ReservationSourceRecord = z.infer<typeof ReservationSourceRecord>;
