/**
 * At the hub, the password-setup mail of a customer a store registered without a password
 * (DESIGN §5 "Credentials stay at the hub"): a till registers customers offline, and no
 * password or setup secret ever travels from a store. Once the store's registration is applied,
 * the hub mails the link, with a secret it makes, to the address it holds for the new customer,
 * unless another customer has it too.
 * Sent once: a registration answered again from its kept result, or replayed to a hub restored
 * from a backup, runs no effect (src/sync/hub/hub-commands.ts), and a customer who has a password
 * is sent nothing. A failed send is logged by the hub; the customer can ask for the link again.
 */
import type { CommandEffects } from '../../sync/hub/command-effects.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { PasswordSetupService } from './password-setup.service.js';

/** The kind of a store's registration (src/features/customers/customers.routes.ts). */
export const REGISTRATION_KIND = 'customers.create';

export interface RegistrationMail {
  customers: Pick<CustomersRepo, 'credentialsById' | 'idsByEmail'>;
  passwordSetup: Pick<PasswordSetupService, 'mailLink'>;
}

export function registerRegistrationMail(effects: CommandEffects, { customers, passwordSetup }: RegistrationMail): void {
  effects.register(REGISTRATION_KIND, (command) => {
    const operation = command.operation;
    const customerId = 'ids' in operation ? operation.ids[0] : undefined;
    if (customerId === undefined) return undefined;
    const customer = customers.credentialsById(customerId);
    if (!customer?.email || customer.state !== 1 || customer.password_hash !== null) return undefined;
    const email = customer.email;
    // Another customer's address (two stores registering offline) is listed for an operator, not mailed.
    if (customers.idsByEmail(email).length > 1) return undefined;
    return () => passwordSetup.mailLink(customerId, email);
  });
}
