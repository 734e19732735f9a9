import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, QueryInteger, StoreTimestamp, Text } from '../../core/schemas.js';
import { Money } from '../../core/money.js';

/** Reservation states of interface.md "Product reservation state". */
export const CANCELED = 0;
export const ENTERED = 1;
export const ReservationState = z.number().int().min(0).max(8);

function requireTogether(first: string, second: string) {
  return (value: Record<string, unknown>, context: z.RefinementCtx) => {
    const hasFirst = value[first] !== undefined && value[first] !== null;
    const hasSecond = value[second] !== undefined && value[second] !== null;
    if (hasFirst === hasSecond) return;
    const missing = hasFirst ? second : first;
    context.addIssue({
      code: 'custom',
      path: [missing],
      message: `${first} and ${second} are given together`,
      params: { reason: 'required' },
    });
  };
}

export const ExternalReservationCode = z.object({ external_code_type_id: z.number().int(), value: Text });
export type ExternalReservationCode = z.infer<typeof ExternalReservationCode>;

/** interface.md types reservation codes as integers; the OpenAPI file as strings of digits. */
const ReservationCode = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);

export const ReservationItem = z
  .object({
    reservable_product_id: Text,
    amount: z.number().int().positive(),
    unit_price: Money.nullable().optional(),
    vat_rate: z.number().min(0).max(100).nullable().optional(),
  })
  .superRefine(requireTogether('unit_price', 'vat_rate'));
export type ReservationItem = z.infer<typeof ReservationItem>;

const Utm = z.object({
  utm_source: z.string().optional(),
  utm_medium: z.string().optional(),
  utm_campaign: z.string().optional(),
});

export const NewProductReservation = z
  .object({
    customer_id: Id,
    store_id: Id,
    product_reservation_source_id: Id,
    reservation_codes: z.array(ReservationCode).max(100).optional(),
    external_reservation_codes: z.array(ExternalReservationCode).max(100).optional(),
    benefit_codes: z.array(Text).max(100).optional(),
    pickup_date: z.iso.date().nullable().optional(),
    customers_note: z.string().nullable().optional(),
    total_price: Money.nullable().optional(),
    currency_id: Text.nullable().optional(),
    product_reservation_items: z.array(ReservationItem).max(1000).optional(),
    external_purchase_id: z.string().nullable().optional(),
    utm: Utm.nullable().optional(),
  })
  .superRefine(requireTogether('total_price', 'currency_id'))
  .superRefine((value, context) => {
    // The OpenAPI file: "Structure has to contain reservation codes or product reservation items".
    if (value.reservation_codes?.length || value.product_reservation_items?.length) return;
    context.addIssue({
      code: 'custom',
      path: ['product_reservation_items'],
      message: 'A reservation names reservation codes or product reservation items',
      params: { reason: 'required' },
    });
  });
export type NewProductReservation = z.infer<typeof NewProductReservation>;

export const CreateProductReservation = z.object({ product_reservation: NewProductReservation });
export type CreateProductReservation = z.infer<typeof CreateProductReservation>;

export const CancelReservation = z.object({ product_reservation_id: Text });
export type CancelReservation = z.infer<typeof CancelReservation>;

export const ProductReservationPath = z.object({ product_reservation_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const PRODUCT_RESERVATION_SORT_FIELDS = ['product_reservation_id', 'customer_id', 'store_id', 'actual_state'] as const;
export const ProductReservationQuery = SortedPaging(PRODUCT_RESERVATION_SORT_FIELDS).extend({
  reservation_code: QueryInteger.pipe(z.number().min(0)).optional(),
  customer_id: Id.optional(),
  store_id: Id.optional(),
  reservation_state: QueryInteger.pipe(ReservationState).optional(),
});
export type ProductReservationQuery = z.infer<typeof ProductReservationQuery>;

/** The `details` column: the nested parts of a reservation that are never filtered on. */
export const ReservationDetails = z.object({
  external_reservation_codes: z.array(ExternalReservationCode),
  benefit_codes: z.array(z.string()),
  customers_note: z.string().nullable(),
  product_reservation_items: z.array(
    z.object({
      reservable_product_id: z.string(),
      amount: z.number(),
      unit_price_minor: z.number().nullable(),
      vat_rate: z.number().nullable(),
    }),
  ),
  external_purchase_id: z.string().nullable(),
  utm: Utm.nullable(),
});
export type ReservationDetails = z.infer<typeof ReservationDetails>;

/** The ProductReservation structure of interface.md as the API answers it, keys in the OpenAPI order. */
export const ProductReservationAnswer = z.object({
  product_reservation_id: z.string(),
  customer_id: z.string(),
  store_id: z.string(),
  reservation_codes: z.array(z.number().int()),
  external_reservation_codes: ReservationDetails.shape.external_reservation_codes,
  benefit_codes: z.array(z.string()),
  product_reservation_source_id: z.string(),
  pickup_date: z.string().nullable(),
  customers_note: z.string().nullable(),
  total_price: z.number().nullable(),
  currency_id: z.string().nullable(),
  product_reservation_items: z.array(
    z.object({ reservable_product_id: z.string(), amount: z.number(), unit_price: z.number().nullable(), vat_rate: z.number().nullable() }),
  ),
  external_purchase_id: z.string().nullable(),
  utm: ReservationDetails.shape.utm,
  actual_state: z.number().int(),
  states: z.array(z.string()).meta({ description: 'Every state the reservation went through, newest first' }),
  comments: z.array(z.string()),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type ProductReservationAnswer = z.infer<typeof ProductReservationAnswer>;
export const ProductReservationsAnswer = Collection('product_reservations', ProductReservationAnswer);
export const ProductReservationCreated = z.object({ product_reservation_id: z.string() });
