/**
 * The hub takes pushes a turn of its event loop at a time
 * (src/decisions/0098-hub-push-in-turns.md): first a push's commands are checked by their schema,
 * then applied, each turn one transaction of the push's next commands. The commands a store sends
 * again to a hub restored from a backup (src/sync/store/replay.ts) are a push here, in the same
 * order. A turn takes no further command once `sync_limits.push_turn_ms` have passed. The loop
 * gives one push a turn, then reads what else waits for it — other stores' pulls, the back office,
 * `/health` — before the next turn, which goes to the push taken first: pushes are applied one
 * after another in the order they came, as when each was one stretch, and a read waits for one
 * turn. A push that does not parse is refused before anything of it is applied; one that does is
 * answered once every turn is durable. A hub stopped between turns keeps the turns it committed,
 * and answers them from their results when the store pushes again (DESIGN §5 "Exactly once").
 */
import type { Db } from '../../db/open.js';
import { hubStopped } from '../../core/sync-errors.js';
import { fromZodIssues } from '../../core/validation-errors.js';
import { PushedCommand, PushEnvelope, ReplayEnvelope, type ReplayedResult } from '../protocol/protocol.js';
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
  async apply(nodeId: string, body: unknown): Promise<AppliedPart> {
    const envelope = PushEnvelope.safeParse(body);
    if (!envelope.success) throw fromZodIssues(envelope.error.issues, body, '');
    const place = (this.taken += 1);
    const commands = await this.checked(envelope.data.commands, place);
    const push: AppliedPart = { results: [], effects: [], skewMs: 0 };
    push.results = await this.inTurns(place, commands.length, (from) => {
      const part = this.commands.applyPart(nodeId, envelope.data.generation, commands, from, this.turnMs);
      push.effects.push(...part.effects);
      push.skewMs = Math.max(push.skewMs, part.skewMs);
      return part.results;
    });
    return push;
  }

  /** A node's replayed commands, checked and run again: their results. */
  async replay(nodeId: string, body: unknown): Promise<ReplayedResult[]> {
    const envelope = ReplayEnvelope.safeParse(body);
    if (!envelope.success) throw fromZodIssues(envelope.error.issues, body, '');
    const place = (this.taken += 1);
    const commands = await this.checked(envelope.data.commands, place);
    return this.inTurns(place, commands.length, (from) => this.commands.replayPart(nodeId, commands, from, envelope.data.final, this.turnMs));
  }

  /** The results of `count` commands, each turn of the push at `place` running `part` from the first command no turn has run yet. */
  private async inTurns<Result>(place: number, count: number, part: (from: number) => Result[]): Promise<Result[]> {
    const results: Result[] = [];
    while (results.length < count) {
      await this.turn(place);
      results.push(...part(results.length));
    }
    return results;
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
