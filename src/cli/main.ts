import { Command, CommanderError } from 'commander';
import { ConfigError } from '../core/config.js';
import { AppError } from '../core/errors.js';
import { registerAdminCommands } from './admin.commands.js';
import { registerBackupCommands } from './backup.commands.js';
import { registerDatabaseCommands } from './database.commands.js';
import { registerHeldCommands } from './held.commands.js';
import { registerHubCommands } from './hub.commands.js';
import { registerImportCommand } from './import.command.js';
import { registerProgramCommands } from './program.commands.js';
import { registerServeCommand } from './serve.command.js';
import { registerSyncCommands } from './sync.commands.js';

export function buildProgram(): Command {
  const program = new Command('loyaltyd')
    .description('Offline-first loyalty and CRM gateway: store daemons on local SQLite replicas, synced with a hub.')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerDatabaseCommands(program);
  registerAdminCommands(program);
  registerSyncCommands(program);
  registerHeldCommands(program);
  registerProgramCommands(program);
  registerImportCommand(program);
  registerBackupCommands(program);
  registerHubCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) {
    process.stderr.write(`loyaltyd: ${error.message}\n`);
    return 2;
  }
  if (error instanceof AppError) {
    const params = (error.body.error_data?.invalid_params ?? []) as { name: string; reason: string; value: string }[];
    const reasons = params.map((param) => `${param.name}: ${param.reason}${param.value ? ` (${param.value})` : ''}`);
    process.stderr.write(`loyaltyd: ${[error.body.detail, ...reasons].join('\n  ')}\n`);
    return 1;
  }
  process.stderr.write(`loyaltyd: ${(error as Error).message ?? String(error)}\n`);
  return 1;
}
