import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { configFrom, print, withApp, type CommonOptions } from './context.js';

export function registerProgramCommands(program: Command): void {
  const loyalty = program.command('program').description('The loyalty program: earning rules and rewards');
  loyalty
    .command('load')
    .description(
      'Validate a program file (JSON; example: config/program.example.json) and load it, replacing the program and updating its rewards by id',
    )
    .argument('<file>', 'program JSON file')
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, options: CommonOptions) => {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new Error(`cannot read program file ${file}: ${(error as Error).message}`);
      }
      await withApp(configFrom(options), (app) => print(app.services.program.load(raw), options.json));
    });
}
