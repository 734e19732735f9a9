import type { Row } from '../../db/write-path.js';
import { formatTimestamp } from '../../core/time.js';
import { ADDRESS_KEYS, type AddressAnswer } from '../address.schema.js';
import type { CustomerRow } from './customers.repo.js';
import type { CustomerAnswer, PersonalInformation } from './customers.schemas.js';
import { featureColumns } from '../column-codecs.js';

/** Customer as GET /customers answers it; empty fields are null (interface.md). */
export function toCustomer(row: CustomerRow, timeZone: string): CustomerAnswer {
  const address = featureColumns['customers.address'](row.address);
  const agreement = featureColumns['customers.agreement'](row.agreement);
  return {
    customer_id: row.id,
    personal_information: {
      gender: row.gender,
      first_name: row.first_name,
      last_name: row.last_name,
      birthdate: row.birthdate,
      email: row.email,
      phone: row.phone,
      language_id: row.language_id,
      store_id: row.store_id,
      address: Object.fromEntries(ADDRESS_KEYS.map((key) => [key, address[key] ?? null])) as AddressAnswer,
      agreement: {
        agreement_gtc: agreement.agreement_gtc ?? 0,
        agreement_profiling: agreement.agreement_profiling ?? 0,
        agreement_marketing_communication: agreement.agreement_marketing_communication ?? 0,
        custom_agreements: agreement.custom_agreements ?? [],
      },
    },
    last_change: formatTimestamp(row.last_change, timeZone, true),
    state: row.state,
  };
}

/** The columns a PersonalInformation sets; fields it leaves out are not touched. */
export function personalInformationColumns(info: PersonalInformation): Row {
  const columns: Row = {};
  for (const key of ['gender', 'first_name', 'last_name', 'birthdate', 'email', 'phone', 'language_id', 'store_id'] as const) {
    const value = info[key];
    if (value !== undefined) columns[key] = value;
  }
  if (info.address !== undefined) columns.address = JSON.stringify(info.address);
  if (info.agreement !== undefined) columns.agreement = JSON.stringify(info.agreement);
  return columns;
}
