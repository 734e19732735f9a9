/** Cards as the current OpenAPI file shapes them (Card). */
import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, QueryArray, QueryBoolean, QueryInteger, Text, StoreTimestamp } from '../../core/schemas.js';

/** Card numbers are text; some SDKs send them as numbers. */
const CardNumber = z.union([Text, z.number().int().nonnegative().transform(String)]);
const CardState = z.number().int().min(0).max(1);

/**
 * `valid_from`/`valid_to`: `YYYY-MM-DD HH:MM:SS`, ISO 8601, or a bare `YYYY-MM-DD` as the
 * 2021 examples send; read in the store's time zone by the service.
 */
const Validity = z.string().nullable().optional();

export const CardInput = z.object({
  customer_id: Id,
  card_number: CardNumber,
  secondary_card_number: z.string().nullable().optional(),
  card_type_id: z.string().nullable().optional(),
  valid_from: Validity,
  valid_to: Validity,
  store_id: Id.nullable().optional(),
  state: CardState.optional(),
});
export type CardInput = z.infer<typeof CardInput>;

export const CreateCard = z.object({ card: CardInput });
export type CreateCard = z.infer<typeof CreateCard>;

/** PUT changes the fields sent and keeps the others. */
export const UpdateCard = z.object({ card: CardInput.partial() });
export type UpdateCard = z.infer<typeof UpdateCard>;

/** The fields this list sorts by: those an index keeps in order. */
export const CARD_SORT_FIELDS = ['card_id', 'customer_id', 'card_type_id', 'card_number', 'secondary_card_number'] as const;
export const CardsQuery = SortedPaging(CARD_SORT_FIELDS).extend({
  customer_id: Text.optional(),
  card_number: Text.optional(),
  card_type_id: Text.optional(),
  state: QueryInteger.pipe(CardState).optional(),
  is_valid: QueryBoolean.optional(),
  card_number_list: QueryArray.pipe(z.array(z.string()).max(1000)).optional(),
  /** true: `card_number` and `card_number_list` search the secondary numbers instead. */
  search_secondary_card_number: QueryBoolean.optional(),
});
export type CardsQuery = z.infer<typeof CardsQuery>;

export const CustomerCardsQuery = CardsQuery.omit({ customer_id: true });
export type CustomerCardsQuery = z.infer<typeof CustomerCardsQuery>;

export const CardPath = z.object({ card_id: Text });
export const CustomerCardsPath = z.object({ customer_id: Text });

/** Card as the API answers it, keys in the order of the OpenAPI Card schema. */
export const CardAnswer = z.object({
  card_id: Id,
  customer_id: Id,
  card_type_id: z.string().nullable(),
  card_number: z.string(),
  secondary_card_number: z.string().nullable(),
  valid_from: StoreTimestamp.nullable(),
  valid_to: StoreTimestamp.nullable(),
  store_id: z.string().nullable(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type CardAnswer = z.infer<typeof CardAnswer>;

export const CardsAnswer = Collection('cards', CardAnswer);
export type CardsAnswer = z.infer<typeof CardsAnswer>;

export const CardCreated = z.object({ card_id: Id });
export type CardCreated = z.infer<typeof CardCreated>;
