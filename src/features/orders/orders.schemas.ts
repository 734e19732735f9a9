import { z } from 'zod';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, QueryInteger, StoreTimestamp, Text } from '../../core/schemas.js';
import { Money } from '../../core/money.js';

export const Address = z.object({
  address1: z.string().optional(),
  address2: z.string().optional(),
  address3: z.string().optional(),
  address4: z.string().optional(),
  address5: z.string().optional(),
  address6: z.string().optional(),
  address7: z.string().optional(),
  zip: z.string().optional(),
  city: z.string().optional(),
  country_code: z.string().optional(),
});

export const PersonalInformation = z.object({
  gender: z.union([z.literal(1), z.literal(2)]).optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  birthdate: z.iso.date().optional(),
  email: z.email().optional(),
  phone: z
    .string()
    .regex(/^[1-9][0-9]*$/, 'digits with the international prefix')
    .optional(),
  language_id: z.string().optional(),
  store_id: Id.optional(),
  address: Address.optional(),
});

export const InvoicingData = z.object({
  payment_id: Text,
  paid_date: z.string().optional(),
  personal_information: PersonalInformation.optional(),
});

export const ShippingData = z.object({
  shipping_id: Text,
  contact_firstname: z.string().optional(),
  contact_lastname: z.string().optional(),
  phone: z.string().optional(),
  address: Address.optional(),
});

export const OrderItem = z.object({
  product_variant_id: Text,
  customer_id: Id.optional(),
  amount: z.number().int().positive(),
  unit_price: Money,
  vat_rate: z.number().min(0).max(100),
});

export const NewOrder = z.object({
  order_number: Text.nullable().optional(),
  customer_id: Id,
  currency_id: Text,
  total_price: Money,
  discount_codes: z.array(Text).max(100).nullable().optional(),
  order_items: z.array(OrderItem).min(1).max(1000),
  invoicing_data: InvoicingData,
  shipping_data: ShippingData.nullable().optional(),
  customer_note: z.string().nullable().optional(),
});
export type NewOrder = z.infer<typeof NewOrder>;

export const CreateOrder = z.object({ order: NewOrder });

export const OrderPath = z.object({ order_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const ORDER_SORT_FIELDS = ['order_id', 'customer_id'] as const;
export const OrderQuery = SortedPaging(ORDER_SORT_FIELDS).extend({
  customer_id: Id.optional(),
  state: QueryInteger.pipe(z.number().min(0).max(2)).optional(),
});
export type OrderQuery = z.infer<typeof OrderQuery>;

/** The `details` column: the nested parts of an order, stored as sent (money in minor units). */
export const OrderDetails = z.object({
  discount_codes: z.array(z.string()).nullable(),
  order_items: z.array(
    z.object({
      order_item_id: z.string(),
      product_variant_id: z.string(),
      customer_id: z.string(),
      amount: z.number(),
      unit_price_minor: z.number(),
      vat_rate: z.number(),
    }),
  ),
  invoicing_data: z.object({
    payment_id: z.string(),
    paid_at: z.string().nullable(),
    personal_information: PersonalInformation.nullable(),
  }),
  shipping_data: ShippingData.nullable(),
  customer_note: z.string().nullable(),
});
export type OrderDetails = z.infer<typeof OrderDetails>;

/** The Order structure of the OpenAPI file as the API answers it, keys in its order. */
export const OrderAnswer = z.object({
  order_id: z.string(),
  order_number: z.string(),
  customer_id: z.string(),
  currency_id: z.string(),
  total_price: z.number(),
  discount_codes: OrderDetails.shape.discount_codes,
  order_items: z.array(
    z.object({
      order_item_id: z.string(),
      product_variant_id: z.string(),
      customer_id: z.string(),
      amount: z.number(),
      unit_price: z.number(),
      vat_rate: z.number(),
    }),
  ),
  invoicing_data: z.object({
    payment_id: z.string(),
    paid_date: StoreTimestamp.nullable(),
    personal_information: OrderDetails.shape.invoicing_data.shape.personal_information,
  }),
  shipping_data: OrderDetails.shape.shipping_data,
  customer_note: z.string().nullable(),
  last_change: StoreTimestamp,
});
export type OrderAnswer = z.infer<typeof OrderAnswer>;
export const OrdersAnswer = Collection('orders', OrderAnswer);
export const OrderCreated = z.object({ order_id: z.string() });
