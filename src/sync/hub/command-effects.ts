/**
 * What a store's command asks of the hub beyond its rows, done after the batch commits so
 * that a slow mail server never holds the hub's write transaction. The feature that owns a
 * command kind registers its effect (the tokens feature, the password-setup mail); sync runs
 * whatever is registered and knows no feature.
 */
import type { PushedCommand } from '../protocol/protocol.js';

export type Effect = () => Promise<void>;

/** The effect a pushed command asks for, or undefined when it asks for none. */
export type CommandEffect = (command: PushedCommand) => Effect | undefined;

export class CommandEffects {
  private readonly byKind = new Map<string, CommandEffect>();

  register(kind: string, effect: CommandEffect): void {
    this.byKind.set(kind, effect);
  }

  effectOf(command: PushedCommand): Effect | undefined {
    return this.byKind.get(command.kind)?.(command);
  }
}
