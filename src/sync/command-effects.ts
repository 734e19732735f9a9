/**
 * What a store's command asks of the hub beyond its rows, done after the batch commits so
 * that a slow mail server never holds the hub's write transaction: today, sending the
 * password-setup mail a store queued (DESIGN §4). A failed send leaves the request unsent
 * (`sent_at` null) and is logged.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { WritePath } from '../db/write-path.js';
import { passwordSetupMessage } from '../features/tokens/password-setup.service.js';
import type { Mailer } from '../mail/mailer.js';
import type { PushedCommand } from './protocol.js';

const PasswordSetupPayload = z.object({ id: z.string(), email: z.string(), link: z.string() });

export type Effect = () => Promise<void>;

export class CommandEffects {
  constructor(
    private readonly mailer: Mailer,
    private readonly writes: WritePath,
    private readonly clock: Clock,
  ) {}

  effectOf(command: PushedCommand): Effect | undefined {
    if (command.kind !== 'tokens.send-password-setup-email') return undefined;
    const payload = PasswordSetupPayload.safeParse(command.payload);
    if (!payload.success) return undefined;
    const { id, email, link } = payload.data;
    return async () => {
      await this.mailer.send(passwordSetupMessage(email, link));
      this.writes.write(null, (tx) => tx.update('password_setup_requests', id, { sent_at: new Date(this.clock()).toISOString() }));
    };
  }
}
