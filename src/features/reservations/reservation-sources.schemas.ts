import { SortedPaging } from '../../core/paging.js';
import { z } from 'zod';
import { Collection, Id, LookupState, StoreTimestamp, Text } from '../../core/schemas.js';

export const ReservationSourcePath = z.object({ product_reservation_source_id: z.string() });

/** A reservation source as master data loads it (`loyaltyd import product-reservation-sources`); the API only reads them. */
export const ReservationSourceRecord = z.object({
  product_reservation_source_id: Id.optional(),
  name: Text,
  state: LookupState.optional(),
});
export type ReservationSourceRecord = z.infer<typeof ReservationSourceRecord>;

export const ReservationSourceAnswer = z.object({
  product_reservation_source_id: z.string(),
  name: z.string(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type ReservationSourceAnswer = z.infer<typeof ReservationSourceAnswer>;
export const ReservationSourcesAnswer = Collection('product_reservation_sources', ReservationSourceAnswer);

/** The fields this list sorts by: those an index keeps in order. */
export const RESERVATION_SOURCE_SORT_FIELDS = ['product_reservation_source_id', 'name'] as const;
export const ReservationSourceQuery = SortedPaging(RESERVATION_SOURCE_SORT_FIELDS);
export type ReservationSourceQuery = z.infer<typeof ReservationSourceQuery>;
