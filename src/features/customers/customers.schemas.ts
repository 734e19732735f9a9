/** Customers as the OpenAPI file shapes them (Customer, PersonalInformation, Address, Agreement). */
import { z } from 'zod';
import { Address, AddressAnswer } from '../address.schema.js';
import { SortedPaging } from '../../core/paging.js';
import { Collection, Id, QueryArray, Text, StoreTimestamp } from '../../core/schemas.js';

const OptionalText = z.string().nullable().optional();
const Consent = z.number().int().min(0).max(2);

export const Agreement = z.object({
  agreement_gtc: Consent.optional(),
  agreement_profiling: Consent.optional(),
  agreement_marketing_communication: Consent.optional(),
  custom_agreements: z
    .array(z.object({ agreement_id: Text, agreement_value: Consent }))
    .max(1000)
    .optional(),
});

function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

// The calendar check only runs on a well-formed day, so that one bad value answers one reason.
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be YYYY-MM-DD', abort: true })
  .refine(isCalendarDay, 'must be a calendar date');

/**
 * Phone numbers with the international prefix and digits only, as the OpenAPI pattern has
 * them; a leading `+` and spaces, which people type, are dropped, and some SDKs send a number.
 */
const Phone = z
  .union([z.string(), z.number().int().nonnegative().transform(String)])
  .transform((phone) => phone.replace(/\s/g, '').replace(/^\+/, ''))
  .pipe(z.string().regex(/^\d{1,20}$/, 'must be digits with the international prefix'));

/** The OpenAPI password rule: at least 8 characters, a digit and an upper-case letter. */
const Password = z.string().refine((password) => password.length >= 8 && /\d/.test(password) && /[A-Z]/.test(password), {
  message: 'must have at least 8 characters, a digit and an upper-case letter',
  params: { reason: 'not_allowed_value' },
});

const SocialNetworkCredentials = z.object({ social_network_id: Text, social_network_token: Text });

export const PersonalInformation = z.object({
  gender: z.number().int().min(1).max(2).nullable().optional(),
  first_name: OptionalText,
  last_name: OptionalText,
  birthdate: Day.nullable().optional(),
  email: z.email().nullable().optional(),
  phone: Phone.nullable().optional(),
  language_id: OptionalText,
  store_id: Id.nullable().optional(),
  address: Address.optional(),
  agreement: Agreement.optional(),
});
export type PersonalInformation = z.infer<typeof PersonalInformation>;

export const CustomerSource = z.object({ customer_source_id: Text, external_id: z.string().nullable().optional() });
export type CustomerSource = z.infer<typeof CustomerSource>;

export const CreateCustomer = z.object({
  customer: z.object({ personal_information: PersonalInformation }),
  customer_source: CustomerSource.optional(),
  password: Password.optional(),
  autologin: z.boolean().optional(),
  social_network_credentials: SocialNetworkCredentials.optional(),
});
export type CreateCustomer = z.infer<typeof CreateCustomer>;

/**
 * A customer in an import file: the create structure, with the id from the source system.
 * Imports carry no passwords; any password is refused by the import, whatever its strength.
 */
export const ImportedCustomer = CreateCustomer.extend({ customer_id: Id.optional(), password: z.unknown().optional() });
export type ImportedCustomer = z.infer<typeof ImportedCustomer>;

export const UpdateCustomer = z.object({
  customer: z.object({ personal_information: PersonalInformation }),
  password: Password.optional(),
  social_network_credentials: SocialNetworkCredentials.optional(),
});
export type UpdateCustomer = z.infer<typeof UpdateCustomer>;

/** The OpenAPI birthdate filter: `YYYY-MM-DD` or `DD.MM.YYYY`, compared as `YYYY-MM-DD`. */
const BirthdateFilter = z
  .string()
  .transform((text) => text.replace(/^(\d{2})\.(\d{2})\.(\d{4})$/, '$3-$2-$1'))
  .pipe(Day);

const ListFilter = QueryArray.pipe(z.array(z.string()).max(1000));

/** The fields this list sorts by: those an index keeps in order. */
export const CUSTOMER_SORT_FIELDS = ['customer_id'] as const;
export const CustomersQuery = SortedPaging(CUSTOMER_SORT_FIELDS).extend({
  email: Text.optional(),
  phone: Phone.optional(),
  customer_source_id: Text.optional(),
  first_name: Text.optional(),
  last_name: Text.optional(),
  birthdate: BirthdateFilter.optional(),
  email_list: ListFilter.optional(),
  customer_ids: ListFilter.optional(),
});
export type CustomersQuery = z.infer<typeof CustomersQuery>;

export const CustomerPath = z.object({ customer_id: Text });

/** Customer as the API answers it; empty fields are null (interface.md). */
export const CustomerAnswer = z.object({
  customer_id: Id,
  personal_information: z.object({
    gender: z.number().int().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    birthdate: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    language_id: z.string().nullable(),
    store_id: z.string().nullable(),
    address: AddressAnswer,
    agreement: z.object({
      agreement_gtc: Consent,
      agreement_profiling: Consent,
      agreement_marketing_communication: Consent,
      custom_agreements: z.array(z.object({ agreement_id: z.string(), agreement_value: Consent })),
    }),
  }),
  last_change: StoreTimestamp,
  state: z.number().int(),
});
export type CustomerAnswer = z.infer<typeof CustomerAnswer>;

export const CustomersAnswer = Collection('customers', CustomerAnswer);
export type CustomersAnswer = z.infer<typeof CustomersAnswer>;

export const CustomerCreated = z.object({ customer_id: Id });
export type CustomerCreated = z.infer<typeof CustomerCreated>;
