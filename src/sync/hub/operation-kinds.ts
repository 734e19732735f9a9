/**
 * The closed list of writes a store may take offline that the hub runs again (DESIGN §5
 * "Authority"): the endpoints that declare `offline` (src/http/endpoint.ts), by the kind of
 * command they queue. The hub parses a command's call with the endpoint's own schemas and
 * runs it through the endpoint's own service call; sync knows no feature.
 */
import type { Endpoint, RequestContext } from '../../http/endpoint.js';
import type { Interface } from '../../http/interfaces.js';
import type { Principal } from '../../http/principal.js';
import { parseInput } from '../../http/routes.js';

export interface OperationKind {
  kind: string;
  /** The table whose row the operation's first id names. */
  makes: string;
  /** Parses the call's input as the store did (throws the API's 400 when it does not parse). */
  parse(input: { params: unknown; query: unknown; body: unknown }): { params: unknown; query: unknown; body: unknown };
  /** Runs the call; synchronous, inside the hub's transaction. */
  run(input: { params: unknown; query: unknown; body: unknown }, context: RequestContext): void;
  /** Whether the interface the call came through offers it. */
  offeredIn(iface: Interface): boolean;
}

export class OperationKinds {
  private readonly byKind = new Map<string, OperationKind>();

  add(endpoints: readonly Endpoint[]): void {
    for (const endpoint of endpoints) {
      const offline = endpoint.offline;
      if (!offline) continue;
      if (this.byKind.has(offline.kind)) throw new Error(`two endpoints run operations of kind ${offline.kind}`);
      this.byKind.set(offline.kind, {
        kind: offline.kind,
        makes: offline.makes,
        parse: (input) => parseInput(endpoint, input),
        run: (input, context) => offline.run(input as never, context),
        offeredIn: (iface) => endpoint.interfaces.includes(iface),
      });
    }
  }

  get(kind: string): OperationKind | undefined {
    return this.byKind.get(kind);
  }
}

/** The context a replayed call runs in: the caller the store authenticated, as the hub checked them. */
export function replayContext(iface: Interface, principal: Principal, commandId: string): RequestContext {
  return { iface, principal, requestId: `command:${commandId}`, ip: '' };
}
