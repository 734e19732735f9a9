/** Customers as the OpenAPI file shapes them (Customer, PersonalInformation, Address, Agreement). */
import { z } from 'zod';
import { Paging } from '../../http/paging.js';
import { Id, Text } from '../../http/schemas.js';

export const Address = z.object({
  address1: z.string().nullable().optional(),
  address2: z.string().nullable().optional(),
  address3: z.string().nullable().optional(),
  address4: z.string().nullable().optional(),
  address5: z.string().nullable().optional(),
  address6: z.string().nullable().optional(),
  address7: z.string().nullable().optional(),
  zip: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  country_code: z.string().regex(/^[a-z]{2}$/, 'must be a lower-case two-letter code').nullable().optional(),
});

export const Agreement = z.object({
  agreement_gtc: z.number().int().min(0).max(2).optional(),
  agreement_profiling: z.number().int().min(0).max(2).optional(),
  agreement_marketing_communication: z.number().int().min(0).max(2).optional(),
  custom_agreements: z.array(z.object({ agreement_id: Text, agreement_value: z.number().int() })).optional(),
});

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const PersonalInformation = z.object({
  gender: z.number().int().min(0).max(2).nullable().optional(),
  first_name: z.string().nullable().optional(),
  last_name: z.string().nullable().optional(),
  birthdate: Day.nullable().optional(),
  email: z.email().nullable().optional(),
  /** Phone numbers arrive as numbers from some SDKs; they are kept as text. */
  phone: z.union([z.string(), z.number().int().transform(String)]).nullable().optional(),
  language_id: z.string().nullable().optional(),
  store_id: Id.nullable().optional(),
  address: Address.optional(),
  agreement: Agreement.optional(),
});
export type PersonalInformation = z.infer<typeof PersonalInformation>;

export const CreateCustomer = z.object({
  customer: z.object({ personal_information: PersonalInformation }),
  customer_source: z.object({ customer_source_id: Text, external_id: z.string().nullable().optional() }).optional(),
  password: z.string().min(8, 'must have at least 8 characters').optional(),
  autologin: z.boolean().optional(),
});
export type CreateCustomer = z.infer<typeof CreateCustomer>;

/** A customer in an import file: the create structure, with the id from the source system. */
export const ImportedCustomer = CreateCustomer.extend({ customer_id: Id.optional() });
export type ImportedCustomer = z.infer<typeof ImportedCustomer>;

export const UpdateCustomer = z.object({ customer: z.object({ personal_information: PersonalInformation }) });
export type UpdateCustomer = z.infer<typeof UpdateCustomer>;

export const CustomersQuery = Paging.extend({
  email: z.string().optional(),
  phone: z.string().optional(),
  customer_source_id: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  birthdate: Day.optional(),
});
export type CustomersQuery = z.infer<typeof CustomersQuery>;

export const CustomerPath = z.object({ customer_id: Text });

export interface CustomerRow {
  id: string;
  gender: number | null;
  first_name: string | null;
  last_name: string | null;
  birthdate: string | null;
  email: string | null;
  phone: string | null;
  language_id: string | null;
  store_id: string | null;
  address: string;
  agreement: string;
  state: number;
  last_change: string;
}
