/**
 * At the hub, the password-setup mail a store queued (DESIGN §4), sent once the store's
 * command arrives, then marked sent. The hub trusts the command for nothing it can check
 * itself: the mail goes to the address the hub holds for the request's customer, never to
 * one the command names, and the link is the hub's own setup URL with the request's secret,
 * which must match the secret's hash the request carries. A failed send leaves the request
 * unsent (`sent_at` null) and is logged by the hub.
 */
import { z } from 'zod';
import { sha256Hex } from '../../auth/secrets.js';
import type { Clock } from '../../core/clock.js';
import type { WritePath } from '../../db/write-path.js';
import type { Mailer } from '../../mail/mailer.js';
import type { CommandEffects } from '../../sync/hub/command-effects.js';
import { CommandRejected } from '../../sync/hub/command-policy.js';
import type { CommandCompletion } from '../../sync/hub/hub-commands.js';
import type { CustomersRepo } from '../customers/customers.repo.js';
import type { TokensRepo } from './tokens.repo.js';
import { PASSWORD_SETUP_COMMAND, passwordSetupMessage } from './password-setup.service.js';

const PasswordSetupPayload = z.object({ id: z.string(), customer_id: z.string(), secret_hash: z.string(), link: z.string() });

export interface PasswordSetupMail {
  mailer: Mailer;
  writes: WritePath;
  customers: Pick<CustomersRepo, 'credentialsById'>;
  requests: Pick<TokensRepo, 'passwordSetupSentAt'>;
  /** `mail.password_setup_url`: the page the link opens. */
  setupUrl: string;
  clock: Clock;
}

export function registerPasswordSetupEffect(effects: CommandEffects, mail: PasswordSetupMail): void {
  effects.register(PASSWORD_SETUP_COMMAND, (command) => {
    const payload = PasswordSetupPayload.safeParse(command.payload);
    if (!payload.success) return undefined;
    const { id, customer_id: customerId, secret_hash: secretHash, link } = payload.data;
    // Sent already: the command comes again after the hub forgot its result (src/sync/hub/feed-compaction.ts).
    if (mail.requests.passwordSetupSentAt(id)) return undefined;
    const inserted = command.changes.find(
      (change) => change.entity === 'password_setup_requests' && change.entity_id === id && change.op === 'insert',
    );
    const secret = new URL(link, mail.setupUrl).searchParams.get('token');
    const email = mail.customers.credentialsById(customerId)?.email;
    if (!inserted || inserted.row?.customer_id !== customerId || inserted.row.secret_hash !== secretHash) return undefined;
    if (!secret || sha256Hex(secret) !== secretHash || !email) return undefined;
    const url = new URL(mail.setupUrl);
    url.searchParams.set('token', secret);
    return async () => {
      await mail.mailer.send(passwordSetupMessage(email, url.toString()));
      mail.writes.write(null, (tx) => tx.update('password_setup_requests', id, { sent_at: new Date(mail.clock()).toISOString() }));
    };
  });
}

/** The hub's check of a store's password-setup request: its address must be the one the hub holds for the customer. */
export function checkPasswordSetups(customers: Pick<CustomersRepo, 'credentialsById'>): CommandCompletion {
  return (command) => {
    for (const change of command.changes) {
      if (change.entity !== 'password_setup_requests' || !change.row) continue;
      const stored = customers.credentialsById(String(change.row.customer_id))?.email;
      if (!stored || stored.toLowerCase() !== String(change.row.email).toLowerCase()) throw new CommandRejected("the address is not the customer's");
    }
  };
}
