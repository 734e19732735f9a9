import { syncsWithHub } from '../core/config.js';
import type { Command } from 'commander';
import pino from 'pino';
import { createApp } from '../root/app.js';
import { systemClock } from '../core/clock.js';
import { demoCredentials } from '../demo/demo.js';
import { prepareServedFolder } from '../root/served-folder.js';
import { startServer } from '../root/server.js';
import { Writer } from '../root/writer.js';
import { serverTls } from '../root/tls-files.js';
import { configFrom, type CommonOptions } from './context.js';
import { checkDataFolder, modeAdvice } from './data-folder.js';

interface ServeOptions extends CommonOptions {
  mode?: string;
  port?: string;
  host?: string;
  hubUrl?: string;
  nodeName?: string;
  nodeSecret?: string;
  demo?: boolean;
  showcase?: boolean;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the daemon: the loyalty API of both interfaces, /health and /metrics')
    .option('--mode <mode>', 'store or hub (default store, or LOYALTYD_MODE)')
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--port <n>', 'TCP port, 0 for any free one (default 8080, or LOYALTYD_PORT)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or LOYALTYD_HOST)')
    .option('--config <file>', 'JSON config file')
    .option('--hub-url <url>', 'hub to sync with (store mode)')
    .option('--node-name <name>', "this store node's name at the hub")
    .option('--node-secret <secret>', "this store node's secret from `loyaltyd nodes add`")
    .option('--demo', 'load the demo chain on first start and print its credentials')
    .option('--showcase', 'with --demo: also load the showcase (a wider range, twenty customers with bills, events), as npm start does')
    .action(async (options: ServeOptions) => {
      const config = configFrom(options, {
        mode: options.mode,
        'http.port': options.port,
        'http.host': options.host,
        'hub.url': options.hubUrl,
        'node.name': options.nodeName,
        'node.secret': options.nodeSecret,
      });
      checkDataFolder(config, config.mode, { mustExist: false, advice: modeAdvice(config.mode) });
      const log = pino({ level: config.log.level });
      const demo = { demo: options.demo === true, showcase: options.demo === true && options.showcase === true };
      // A store missing its node credentials stops here (status 2, like every config error)
      // rather than serve without syncing.
      const writer = config.mode === 'store' ? await Writer.start({ config, syncAgent: true, ...demo }, log) : undefined;
      writer?.onStopped((error) => {
        log.fatal({ err: error }, 'the writer thread stopped; exiting');
        process.exit(1);
      });
      const app = createApp({ config, clock: systemClock, log, syncAgent: true, writer, snapshotThreads: true, serving: true });
      if (!writer) await prepareServedFolder(app, config.mode, demo);
      const server = await startServer(app, config.http.host, config.http.port, serverTls(config));
      const lines = [`loyaltyd ${config.mode} serving ${server.url} (data in ${config.data_dir})`];
      if (syncsWithHub(config)) lines.push(`syncing with hub ${config.hub.url} as node ${config.node.name}`);
      if (options.demo) {
        lines.push('demo credentials:');
        for (const [key, value] of Object.entries(demoCredentials)) lines.push(`  ${key.padEnd(24)} ${value}`);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
      log.info({ url: server.url, mode: config.mode, node_id: app.node.identity.nodeId }, 'listening');

      const stop = async (signal: string) => {
        log.info({ signal }, 'stopping');
        await server.close();
        app.close();
        await writer?.stop();
        process.exit(0);
      };
      process.once('SIGTERM', (signal) => void stop(signal));
      process.once('SIGINT', (signal) => void stop(signal));
    });
}
