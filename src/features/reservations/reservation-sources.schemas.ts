import { z } from 'zod';

export const ReservationSourcePath = z.object({ product_reservation_source_id: z.string() });

export const ReservationSourceRow = z.object({
  id: z.string(),
  name: z.string(),
  state: z.number(),
  last_change: z.string(),
});
export type ReservationSourceRow = z.infer<typeof ReservationSourceRow>;
