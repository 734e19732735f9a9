/**
 * The customer interface's rule (DESIGN §4): a customer session sees and changes only its
 * own customer's records. In the enterprise interface these helpers change nothing.
 */
import { forbidden, invalidParam } from '../core/errors.js';
import type { RequestContext } from './endpoint.js';

/** The logged-in customer in the customer interface; undefined in the enterprise one. */
export function loggedInCustomer(context: RequestContext): string | undefined {
  if (context.iface === 'enterprise') return undefined;
  if (context.principal.kind !== 'token' || !context.principal.customerId) {
    throw forbidden('No customer is logged in on this token');
  }
  return context.principal.customerId;
}

/**
 * The `customer_id` filter of a collection: in the customer interface it is the logged-in
 * customer, and naming another customer is refused.
 */
export function customerFilter(context: RequestContext, requested: string | undefined, name = 'customer_id'): string | undefined {
  const own = loggedInCustomer(context);
  if (own === undefined) return requested;
  if (requested !== undefined && requested !== own) throw invalidParam(name, 'not_belong_to_logged_in_customer', requested);
  return own;
}

/** Refuses a record, found by its id, that belongs to another customer than the logged-in one. */
export function assertOwnRecord(context: RequestContext, owner: string | null, name: string, value: string): void {
  const own = loggedInCustomer(context);
  if (own !== undefined && owner !== own) throw invalidParam(name, 'not_belong_to_logged_in_customer', value);
}
