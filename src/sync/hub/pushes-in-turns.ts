/**
 * The hub takes pushes a turn of its event loop at a time (src/decisions/0098-hub-push-in-turns.md):
 * first a push's commands are checked by their schema, then applied, each turn one transaction
 * of the push's next commands. A turn takes no further command once `sync_limits.push_turn_ms`
 * have passed. The loop gives one push a turn, then reads what else waits for it — other
 * stores' pulls, the back office, `/health` — before the next turn, which goes to the push
 * taken first: pushes are applied one after another in the order they came, as when each was
 * one stretch, and a read waits for one turn. A push that does not parse is refused before
 * anything of it is applied; one that does is answered once every turn is durable. A hub
 * stopped between turns keeps the turns it committed, and answers them from their results when
 * the store pushes again (DESIGN §5 "Exactly once").
 */
import type { Db } from '../../db/open.js';
import { hubStopped } from '../../core/sync-errors.js';
import { fromZodIssues } from '../../core/validation-errors.js';
import { PushedCommand, PushEnvelope } from '../protocol/protocol.js';
import type { AppliedPart, HubCommands } from './hub-commands.js';

export class PushesInTurns {
  /** The pushes waiting for a turn, each with its place in the order the pushes came. */
  private readonly waiting: { place: number; resume: () => void }[] = [];
  private taken = 0;
  private turning = false;

  constructor(
    private readonly db: Db,
    private readonly commands: HubCommands,
    private readonly turnMs: number,
  ) {}

  /** A node's push body, checked and applied: the results of its commands, the effects to run once answered, and its clock's skew. */
  async apply(nodeId: string, body: unknown, protocol: number): Promise<AppliedPart> {
    const envelope = PushEnvelope.safeParse(body);
    if (!envelope.success) throw fromZodIssues(envelope.error.issues, body, '');
    const place = (this.taken += 1);
    const commands = await this.checked(envelope.data.commands, place);
    const push: AppliedPart = { results: [], effects: [], skewMs: 0 };
    while (push.results.length < commands.length) {
      await this.turn(place);
      const part = this.commands.applyPart(nodeId, envelope.data.generation, commands, push.results.length, protocol, this.turnMs);
      push.results.push(...part.results);
      push.effects.push(...part.effects);
      push.skewMs = Math.max(push.skewMs, part.skewMs);
    }
    return push;
  }

  /** The commands as their schema reads them, or the first that does not parse refused. */
  private async checked(commands: unknown[], place: number): Promise<PushedCommand[]> {
    const parsed: PushedCommand[] = [];
    let began = -Infinity;
    for (const [index, command] of commands.entries()) {
      if (performance.now() - began >= this.turnMs) {
        await this.turn(place);
        began = performance.now();
      }
      const result = PushedCommand.safeParse(command);
      if (!result.success) throw fromZodIssues(result.error.issues, command, `commands.${index}`);
      parsed.push(result.data);
    }
    return parsed;
  }

  /** Done at the next turn of the push at `place`: one push's a turn of the loop, none before those taken before it are done. */
  private async turn(place: number): Promise<void> {
    await new Promise<void>((resume) => {
      this.waiting.push({ place, resume });
      if (!this.turning) {
        this.turning = true;
        setImmediate(() => this.next());
      }
    });
    if (!this.db.open) throw hubStopped();
  }

  /** Gives the waiting push taken first its turn, which runs once this callback returns; the next comes at the loop's next turn. */
  private next(): void {
    if (this.waiting.length === 0) {
      this.turning = false;
      return;
    }
    let first = 0;
    for (let index = 1; index < this.waiting.length; index += 1) if (this.waiting[index]!.place < this.waiting[first]!.place) first = index;
    this.waiting.splice(first, 1)[0]!.resume();
    setImmediate(() => this.next());
  }
}
