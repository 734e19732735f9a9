/**
 * At the hub, the password-setup mail a store queued (DESIGN §4): sent once the store's
 * command arrives, then marked sent. A failed send leaves the request unsent (`sent_at`
 * null) and is logged by the hub.
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { WritePath } from '../../db/write-path.js';
import type { Mailer } from '../../mail/mailer.js';
import type { CommandEffects } from '../../sync/command-effects.js';
import { PASSWORD_SETUP_COMMAND, passwordSetupMessage } from './password-setup.service.js';

const PasswordSetupPayload = z.object({ id: z.string(), email: z.string(), link: z.string() });

export function registerPasswordSetupEffect(effects: CommandEffects, mailer: Mailer, writes: WritePath, clock: Clock): void {
  effects.register(PASSWORD_SETUP_COMMAND, (command) => {
    const payload = PasswordSetupPayload.safeParse(command.payload);
    if (!payload.success) return undefined;
    const { id, email, link } = payload.data;
    return async () => {
      await mailer.send(passwordSetupMessage(email, link));
      writes.write(null, (tx) => tx.update('password_setup_requests', id, { sent_at: new Date(clock()).toISOString() }));
    };
  });
}
