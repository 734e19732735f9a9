/**
 * `loyaltyd held`: the stores' operations the hub holds for an operator (DESIGN §5
 * "Authority", src/sync/hub/held-commands.ts) — past a node's limits, or refused by the hub's
 * feature code as it stands. Listed, released (run again past the limits) or voided on the
 * hub's data folder; a store holds none.
 */
import type { Command } from 'commander';
import type { App } from '../root/app.js';
import { AppError } from '../core/errors.js';
import type { HeldCommands } from '../sync/hub/held-commands.js';
import { configFrom, positiveInteger, print, withApp, type CommonOptions } from './context.js';

const DEFAULT_LIMIT = 1000;

interface HeldOptions extends CommonOptions {
  mode?: string;
}

function common(command: Command): Command {
  return command
    .option('--mode <mode>', 'store or hub (default store, or LOYALTYD_MODE); held operations are kept at the hub')
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the result as JSON');
}

export function registerHeldCommands(program: Command): void {
  const held = program
    .command('held')
    .description(
      "Operations the hub holds for an operator: past a store node's limits (config authority.*) or refused as they stand (an unknown customer); counted nowhere until released or voided",
    );

  common(
    held
      .command('list')
      .description('List the operations still held, oldest first: command id, node, kind, reason, when held')
      .option('--limit <n>', 'at most this many, the oldest', positiveInteger, DEFAULT_LIMIT),
  ).action(async (options: HeldOptions & { limit: number }) => {
    await withHeld(options, (commands, app) => {
      const nameOf = app.node.db.prepare<[string], string>('SELECT name FROM nodes WHERE id = ?').pluck();
      const listed = commands.list(options.limit).map((command) => ({
        command_id: command.command_id,
        node_id: command.node_id,
        node_name: nameOf.get(command.node_id) ?? null,
        kind: command.kind,
        reason: command.reason,
        held_at: command.held_at,
      }));
      if (options.json) {
        print({ held: listed }, true);
        return;
      }
      if (listed.length === 0) process.stdout.write('no held operations\n');
      for (const command of listed) {
        process.stdout.write(
          `${command.held_at}  ${command.command_id}  ${command.kind}  node ${command.node_name ?? command.node_id}  ${command.reason}\n`,
        );
      }
    });
  });

  common(
    held
      .command('release')
      .description(
        "Run a held operation again at its as-of time, past its node's limits, and count it; refused when the hub still cannot take it (a customer it does not know yet)",
      )
      .argument('<command_id>', 'the held command, as `loyaltyd held list` shows it'),
  ).action(async (commandId: string, options: HeldOptions) => {
    await withHeld(options, (commands) => {
      explained('release', commandId, () => commands.release(commandId));
      print({ command_id: commandId, state: 'released' }, options.json);
    });
  });

  common(
    held
      .command('void')
      .description('Void a held operation: it stays listed as a conflict and is counted nowhere, for good')
      .argument('<command_id>', 'the held command, as `loyaltyd held list` shows it'),
  ).action(async (commandId: string, options: HeldOptions) => {
    await withHeld(options, (commands) => {
      explained('void', commandId, () => commands.void(commandId));
      print({ command_id: commandId, state: 'voided' }, options.json);
    });
  });
}

/** Opens the node of the data folder with its held operations; a store holds none and is refused. */
async function withHeld(options: HeldOptions, work: (held: HeldCommands, app: App) => void): Promise<void> {
  await withApp(configFrom(options, { mode: options.mode }), (app) => {
    if (!app.held) {
      throw new Error(
        'held operations are kept at the hub: run this on the hub\'s data folder in hub mode (--mode hub, LOYALTYD_MODE=hub or "mode": "hub" in the config file)',
      );
    }
    work(app.held, app);
  });
}

/**
 * Runs a release or void, turning its refusal into the operator's words: the API's error
 * says why only in its parameter's message (already released, what the hub still refuses).
 */
function explained(action: string, commandId: string, work: () => void): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 404) throw new Error(`cannot ${action} ${commandId}: the hub never held an operation with this command id`);
    const messages = ((error.body.error_data?.invalid_params ?? []) as { message?: string }[]).flatMap((param) =>
      param.message ? [param.message] : [],
    );
    throw new Error(`cannot ${action} ${commandId}: ${messages.length > 0 ? messages.join('; ') : error.body.detail}`);
  }
}
