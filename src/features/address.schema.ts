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
  country_code: z.string().regex(/^[a-z]{2}$/, 'must be a lower-case two-letter code').nullable().optional(),
});
export type Address = z.infer<typeof Address>;
