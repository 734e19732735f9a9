import { z } from 'zod';

const OptionalText = z.string().nullable().optional();

/** The Address structure customers and stores share (interface.md: address1–address7, zip, city, country_code). */
export const Address = z.object({
  address1: OptionalText,
  address2: OptionalText,
  address3: OptionalText,
  address4: OptionalText,
  address5: OptionalText,
  address6: OptionalText,
  address7: OptionalText,
  zip: OptionalText,
  city: OptionalText,
  country_code: z
    .string()
    .regex(/^[a-z]{2}$/, 'must be a lower-case two-letter code')
    .nullable()
    .optional(),
});
export type Address = z.infer<typeof Address>;

export const ADDRESS_KEYS = [
  'address1',
  'address2',
  'address3',
  'address4',
  'address5',
  'address6',
  'address7',
  'zip',
  'city',
  'country_code',
] as const;

/** An Address as the API answers it: every field, null where empty. */
export const AddressAnswer = z.object({
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  address3: z.string().nullable(),
  address4: z.string().nullable(),
  address5: z.string().nullable(),
  address6: z.string().nullable(),
  address7: z.string().nullable(),
  zip: z.string().nullable(),
  city: z.string().nullable(),
  country_code: z.string().nullable(),
});
export type AddressAnswer = z.infer<typeof AddressAnswer>;
