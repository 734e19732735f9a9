/**
 * What a node knows of the API operation it is serving (DESIGN §5 "Authority"). At a store,
 * an API call runs in a *recording* context: its principal, its as-of time (the feature
 * code's clock stands still at the call's start, so the hub computes the same values), and
 * every id the node makes while it runs, which the write path puts in the command it queues,
 * so the hub can run the same operation again with the same ids. At the hub, a store's operation runs in a *replaying*
 * context: the ids come from the command, the feature code's clock reads the operation's
 * as-of time, and the rows the hub writes take the stamps the hub chose for them.
 *
 * One context store per node (several nodes share a process in tests), carried through the
 * call's awaits by AsyncLocalStorage.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';

/** Who made an API call, as a command carries it: a Principal (src/http/principal.ts). */
export type OperationPrincipal = Readonly<Record<string, unknown>> & { kind: string };

/** An API call as a command carries it: its interface, its input as sent, its principal. */
export interface RecordedCall {
  iface: string;
  input: { params: unknown; query: unknown; body: unknown };
  principal: OperationPrincipal;
}

interface Recording {
  mode: 'recording';
  /** The call, when the hub runs it again; undefined for another write. */
  call: RecordedCall | undefined;
  asOf: number;
  made: string[];
  /** Commands the call has queued so far: only the first carries the call. */
  queued: number;
}

interface Replaying {
  mode: 'replaying';
  ids: string[];
  asOf: number;
  /** The stamp of a row this operation writes, or undefined for a fresh one of the hub's. */
  stampOf: (table: string, id: string) => string | undefined;
}

export class Operations {
  private readonly current = new AsyncLocalStorage<Recording | Replaying>();

  constructor(private readonly wallClock: Clock) {}

  /** Runs an API call, recording what its writes' commands must carry: the call itself only when the hub runs it again. */
  record<T>(call: RecordedCall | undefined, run: () => T): T {
    return this.current.run({ mode: 'recording', call, asOf: this.wallClock(), made: [], queued: 0 }, run);
  }

  /** Runs a store's operation again at the hub: synchronous, so nothing else runs inside it. */
  replay<T>(context: Omit<Replaying, 'mode'>, run: () => T): T {
    return this.current.run({ mode: 'replaying', ...context, ids: [...context.ids] }, run);
  }

  /**
   * What the command being queued carries of its call: the call and every id made so far for
   * the first command of a call; a later command of the same call (rare) only says so, since
   * running the call again at the hub makes its effects too. Undefined outside an API call.
   */
  takeRecorded(): { call?: RecordedCall; as_of: number; ids: string[] } | { continues: true } | undefined {
    const context = this.current.getStore();
    if (context?.mode !== 'recording') return undefined;
    context.queued += 1;
    if (context.queued > 1) return { continues: true };
    const ids = context.made.splice(0);
    return context.call ? { call: context.call, as_of: context.asOf, ids } : { as_of: context.asOf, ids };
  }

  /** Whether a store's operation is being run again (the hub judges it; the till's offline checks do not apply). */
  replaying(): boolean {
    return this.current.getStore()?.mode === 'replaying';
  }

  /** The stamp a replayed row takes, when the hub chose one. */
  stampOf(table: string, id: string): string | undefined {
    const context = this.current.getStore();
    return context?.mode === 'replaying' ? context.stampOf(table, id) : undefined;
  }

  /** An id generator that gives a replayed operation its carried ids in order, and notes every id a recorded call makes. */
  ids(fresh: IdGenerator): IdGenerator {
    return () => {
      const context = this.current.getStore();
      if (context?.mode === 'replaying') return context.ids.shift() ?? fresh();
      const id = fresh();
      if (context?.mode === 'recording') context.made.push(id);
      return id;
    };
  }

  /** The clock feature code reads: the as-of time of the call being recorded or replayed, else the node's. */
  clock(): Clock {
    return () => this.current.getStore()?.asOf ?? this.wallClock();
  }

  /** A replayed operation's as-of time, or undefined outside one. */
  asOf(): number | undefined {
    const context = this.current.getStore();
    return context?.mode === 'replaying' ? context.asOf : undefined;
  }
}
