import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_BATCH_SIZE, importFile } from '../import/import-file.js';
import { importers } from '../import/importers.js';
import { formatOf } from '../import/read-records.js';
import { configFrom, print, withApp, type CommonOptions } from './context.js';
import { progressBar } from './progress.js';

const SHOWN_REJECTIONS = 50;

export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description(
      'Load master data from NDJSON (one API structure per line) or CSV with a header (dotted names for nested fields, e.g. customer.personal_information.email). Resources: customers, cards, stores, campaigns (each as its API create call, with an optional customer_id/store_id/campaign_id), products (external_ids per list), product-groups, brands, rewards (as in a program file), and the lookups the API only reads: purchase-item-types, event-properties, event-groups, product-reservation-sources, store-groups, store-group-records, and vouchers from a previous system (with applied_date and store_id when already used). Rejected records are reported with their line and reason; the rest load in batched transactions.',
    )
    .argument(
      '<resource>',
      'customers, cards, products, product-groups, brands, stores, rewards, campaigns, purchase-item-types, event-properties, event-groups, product-reservation-sources, store-groups, store-group-records or vouchers',
    )
    .argument('<file>', '.ndjson/.jsonl or .csv file')
    .option('--batch-size <n>', 'records per transaction', String(DEFAULT_BATCH_SIZE))
    .option('--data-dir <dir>', 'data folder (default ./data, or LOYALTYD_DATA_DIR)')
    .option('--config <file>', 'JSON config file')
    .option('--json', 'print the result as JSON')
    .action(async (resource: string, file: string, options: CommonOptions & { batchSize: string }) => {
      const config = configFrom(options);
      const size = statSync(file).size;
      await withApp(config, async (app) => {
        const { node, services } = app;
        const all = importers({
          db: node.db,
          writes: node.writes,
          newId: node.newId,
          timeZone: config.time_zone,
          customers: services.customersRepo,
          program: services.program,
        });
        const importer = all[resource];
        if (!importer) throw new Error(`cannot import ${resource}; resources: ${Object.keys(all).join(', ')}`);
        const bar = progressBar();
        const started = performance.now();
        let shown = 0;
        const result = await importFile(app.node, importer, file, formatOf(file), {
          batchSize: Math.max(1, Number(options.batchSize) || DEFAULT_BATCH_SIZE),
          onProgress: (progress) =>
            bar.update(
              progress.bytesRead ?? 0,
              size,
              `${progress.imported.toLocaleString('en')} imported, ${progress.rejected.toLocaleString('en')} rejected`,
            ),
          onRejection: (rejection) => {
            // On a terminal the line first clears the progress bar it is written over.
            const clear = process.stderr.isTTY ? '\r\u001b[K' : '';
            if (shown++ < SHOWN_REJECTIONS) process.stderr.write(`${clear}${file}:${rejection.line}: ${rejection.reason}\n`);
          },
        });
        bar.finish();
        const seconds = (performance.now() - started) / 1000;
        if (result.rejected > SHOWN_REJECTIONS) process.stderr.write(`… and ${result.rejected - SHOWN_REJECTIONS} more rejected\n`);
        print(
          {
            resource,
            read: result.read,
            imported: result.imported,
            rejected: result.rejected,
            seconds: Number(seconds.toFixed(2)),
            rows_per_second: Math.round(result.imported / Math.max(seconds, 0.001)),
          },
          options.json,
        );
        if (result.imported === 0 && result.rejected > 0) process.exitCode = 1;
      });
    });
}
