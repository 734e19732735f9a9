import { z } from 'zod';
import { Paging } from '../../http/paging.js';
import { Id, Text } from '../../http/schemas.js';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const CreateCard = z.object({
  card: z.object({
    customer_id: Id,
    card_number: Text,
    card_type_id: z.string().optional(),
    valid_from: Day.nullable().optional(),
    valid_to: Day.nullable().optional(),
  }),
});
export type CreateCard = z.infer<typeof CreateCard>;

export const CardsQuery = Paging.extend({ customer_id: z.string().optional(), card_number: z.string().optional(), card_type_id: z.string().optional() });
export type CardsQuery = z.infer<typeof CardsQuery>;

export const CardPath = z.object({ card_id: Text });

export interface CardRow {
  id: string;
  customer_id: string;
  card_number: string;
  card_type_id: string | null;
  valid_from: string | null;
  valid_to: string | null;
  state: number;
  last_change: string;
}
