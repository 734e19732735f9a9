/** Stores as the OpenAPI file shapes them (Store, Address, GPSCoordinates, OpeningDay). */
import { z } from 'zod';
import { Address, AddressAnswer } from '../address.schema.js';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, QueryInteger, Text, StoreTimestamp } from '../../core/schemas.js';

const OptionalText = z.string().nullable().optional();
/** Ids of other systems arrive as strings or, in the OpenAPI examples, as numbers. */
const Code = z.union([z.string(), z.number().transform(String)]);

export const GpsCoordinates = z.object({
  gps_longitude: z.number().min(-180).max(180),
  gps_latitude: z.number().min(-90).max(90),
});

/** `HH:MM:SS` as the OpenAPI TimeInterval gives it; `HH:MM` is read as `HH:MM:00`. */
const TimeOfDay = z
  .string()
  .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?|24:00(?::00)?)$/, 'must be HH:MM:SS')
  .transform((time) => (time.length === 5 ? `${time}:00` : time));

export const OpeningDay = z.object({
  day_id: z.enum(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']),
  time_intervals: z
    .array(z.object({ from: TimeOfDay.nullable(), to: TimeOfDay.nullable() }))
    .max(24)
    .nullable(),
});

/** The Store structure of a request: the fields the OpenAPI file requires, the rest optional. */
export const StoreInput = z.object({
  store_code: Text,
  name: Text,
  store_address: Address.nullable().optional(),
  contact_email: z
    .union([z.literal(''), z.email()])
    .nullable()
    .optional(),
  manager_name: OptionalText,
  phone_number: Code.nullable().optional(),
  partner_id: Text,
  system_id: Code.pipe(Text),
  gps_coordinates: GpsCoordinates.nullable().optional(),
  url_address: OptionalText,
  opening: z.array(OpeningDay).max(7).nullable().optional(),
  image_urls: z.array(z.string()).max(100).nullable().optional(),
  visibility_for_customer: z.number().int().min(0).max(1).optional(),
  short_description: OptionalText,
  description: OptionalText,
  registration_id: Code.nullable().optional(),
});
export type StoreInput = z.infer<typeof StoreInput>;

export const StoreBody = z.object({ store: StoreInput });
export type StoreBody = z.infer<typeof StoreBody>;

/** A store of an import file (`loyaltyd import stores`): the API's structure, with the id it may already have. */
export const ImportedStore = StoreBody.extend({ store_id: Id.optional() });
export type ImportedStore = z.infer<typeof ImportedStore>;

export const StorePath = z.object({ store_id: z.string() });

/** The fields this list sorts by: those an index keeps in order. */
export const STORE_SORT_FIELDS = ['store_id', 'store_code', 'name', 'visibility_for_customer'] as const;
export const StoreQuery = SortedPaging(STORE_SORT_FIELDS).extend({
  visible_for_customer: QueryInteger.pipe(z.number().min(0).max(1)).optional(),
  property_id: Text.optional(),
  property_value: Text.optional(),
});
export type StoreQuery = z.infer<typeof StoreQuery>;

/** The `details` column: the Store fields that are never filtered on. */
export const StoreDetails = z.object({
  store_address: Address.nullable().optional(),
  contact_email: OptionalText,
  manager_name: OptionalText,
  phone_number: OptionalText,
  gps_coordinates: GpsCoordinates.nullable().optional(),
  url_address: OptionalText,
  opening: z.array(OpeningDay).nullable().optional(),
  image_urls: z.array(z.string()).nullable().optional(),
  short_description: OptionalText,
  description: OptionalText,
  registration_id: OptionalText,
});
export type StoreDetails = z.infer<typeof StoreDetails>;

/** The Store structure of the OpenAPI file as the API answers it, keys in its order; empty fields are null. */
export const StoreAnswer = z.object({
  store_id: z.string(),
  store_code: z.string(),
  name: z.string(),
  store_address: AddressAnswer.nullable(),
  contact_email: z.string().nullable(),
  manager_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  partner_id: z.string().nullable(),
  system_id: z.string().nullable(),
  gps_coordinates: GpsCoordinates.nullable(),
  url_address: z.string().nullable(),
  opening: z.array(OpeningDay),
  image_urls: z.array(z.string()),
  visibility_for_customer: z.number().int(),
  short_description: z.string().nullable(),
  description: z.string().nullable(),
  registration_id: z.string().nullable(),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type StoreAnswer = z.infer<typeof StoreAnswer>;
export const StoresAnswer = Collection('stores', StoreAnswer);
export type StoresAnswer = z.infer<typeof StoresAnswer>;
export const StoreCreated = z.object({ store_id: Id });
