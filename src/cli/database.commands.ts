import type { Command } from 'commander';
import { databaseFile } from '../root/node.js';
import { loadDemo } from '../demo/demo.js';
import { configFrom, print, withApp, type CommonOptions } from './context.js';

export function registerDatabaseCommands(program: Command): void {
  for (const name of ['init', 'migrate']) {
    program
      .command(name)
      .description(name === 'init' ? 'Create the database in the data folder and apply all migrations' : 'Apply pending migrations')
      .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
      .option('--config <file>', 'JSON config file')
      .option('--json', 'print the result as JSON')
      .action(async (options: CommonOptions) => {
        const config = configFrom(options);
        await withApp(config, (app) =>
          print(
            {
              database: databaseFile(config.data_dir),
              schema_version: app.node.migrations.version,
              applied: app.node.migrations.applied,
            },
            options.json,
          ),
        );
      });
  }

  program
    .command('demo')
    .description('Load the demo chain (stores, products, customers, cards, points, rewards, credentials) and print its credentials')
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the credentials as JSON')
    .action(async (options: CommonOptions) => {
      const config = configFrom(options);
      await withApp(config, async (app) => print({ ...(await loadDemo(app)) }, options.json));
    });
}
