import type { Command } from 'commander';
import { checkDataFolder } from './data-folder.js';
import { commonOptions, configFrom, print, withApp, type CommonOptions } from './context.js';
import { secretArgument } from './secret-input.js';

export function registerAdminCommands(program: Command): void {
  const apps = program.command('apps').description('Customer external applications');
  commonOptions(apps.command('add').description('Add a customer external application').requiredOption('--name <name>', 'application name')).action(
    async (options: CommonOptions & { name: string }) => {
      await withApp(configFrom(options), (app) => print(app.services.applications.create(options.name), options.json));
    },
  );

  const users = program.command('users').description('Enterprise-interface users (POS, back office)');
  commonOptions(
    users
      .command('add')
      .description('Add a user who logs in with POST /users/actions/login')
      .requiredOption('--login <login>', 'login name')
      .requiredOption('--password <password>', 'password, or - to read it from standard input (kept out of the process list)')
      .requiredOption('--app <id>', 'external application id the user logs in to')
      .option('--store <id>', "the store whose POS the user logs in at (only that store's nodes are sent the user); without it, head office")
      .option('--legacy-basic', 'also accept the deprecated hourly SHA-256 Basic scheme for this user'),
  ).action(async (options: CommonOptions & { login: string; password: string; app: string; store?: string; legacyBasic?: boolean }) => {
    await withApp(configFrom(options), async (app) =>
      print(
        await app.services.users.create({
          login: options.login,
          password: await secretArgument(options.password),
          externalApplicationId: options.app,
          legacyBasic: options.legacyBasic ?? false,
          storeId: options.store ?? null,
        }),
        options.json,
      ),
    );
  });

  const apiUsers = program.command('api-users').description('Customer-interface api users');
  commonOptions(
    apiUsers
      .command('add')
      .description('Issue the user name a customer app sends before its token')
      .requiredOption('--name <name>', 'what the credential is for'),
  ).action(async (options: CommonOptions & { name: string }) => {
    await withApp(configFrom(options), (app) => print(app.services.apiUsers.create(options.name), options.json));
  });

  const nodes = program.command('nodes').description('Store nodes of a hub');
  commonOptions(
    nodes
      .command('add')
      .description('Register a store node and issue the secret it syncs with')
      .requiredOption('--name <store>', 'node name')
      .option(
        '--store <id>',
        'a store this node serves, at least one; repeat for each (its facts must name one of them, and it is sent their users)',
        collect,
        [],
      ),
  ).action(async (options: CommonOptions & { name: string; store: string[] }, command: Command) => {
    if (options.store.length === 0) command.error('loyaltyd: nodes add needs at least one --store <id>: the stores the node serves', { exitCode: 2 });
    await withApp(hubFolder(options), (app) => print(app.services.nodes.add(options.name, options.store), options.json));
  });
  commonOptions(
    nodes
      .command('retire')
      .description(
        "Retire a store node for good: its secret stops working, and it no longer shows as silent or holds back the customer states' horizon",
      )
      .requiredOption('--name <store>', 'node name'),
  ).action(async (options: CommonOptions & { name: string }) => {
    await withApp(hubFolder(options), (app) => print(app.services.nodes.retire(options.name), options.json));
  });
}

/** Store nodes are the hub's: a hub's folder, opened as a hub's, whatever LOYALTYD_MODE says. */
function hubFolder(options: CommonOptions) {
  const config = configFrom(options, { mode: 'hub' });
  checkDataFolder(config, 'hub', {
    mustExist: true,
    advice: 'store nodes are registered at the hub, on the folder `loyaltyd serve --mode hub` (or `LOYALTYD_MODE=hub loyaltyd init`) created',
  });
  return config;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
