/**
 * A hub whose database was put back from an older copy without loyaltyd being told (the SQLite
 * file copied over, the PostgreSQL database restored by its own tools) finds its feed behind the mark
 * it left in its folder (src/sync/hub/feed-mark.ts): it refuses to serve, exit 2, naming `loyaltyd
 * hub restored`; once the restore is done as the runbook says (`loyaltyd restore`, or PostgreSQL's
 * restore and `loyaltyd hub restored`) it serves. A real hub process on its engine of the run.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../../src/demo/demo.js';
import { runCli, runCliJson } from '../../support/cli.js';
import { demoHubFolder, startHub, type ServerProcess } from '../../support/cluster.js';
import { backUpHub, putBackByHand, restoreHub } from '../../support/hub-backups.js';
import { dropHubDatabase, hubDatabaseEnv } from '../../support/hub-engine.js';
import { tempDir } from '../../support/server.js';
import { rmSync } from 'node:fs';

const hubDir = tempDir();
const backups = tempDir();
let hub: ServerProcess | undefined;

afterAll(async () => {
  await hub?.stop();
  rmSync(hubDir, { recursive: true, force: true });
  rmSync(backups, { recursive: true, force: true });
  await dropHubDatabase(hubDir);
});

describe('a hub put back from an older copy of its database', () => {
  it('refuses to serve until its feed is renewed, then serves', async () => {
    const env = { LOYALTYD_MODE: 'hub', ...(await hubDatabaseEnv(hubDir)) };
    demoHubFolder(hubDir, env);
    hub = await startHub(hubDir, env);
    const backup = join(backups, 'hub.backup');
    await backUpHub(hubDir, backup);
    // After the backup the feed moves on: a user of the central store, which its nodes are sent.
    await runCliJson(
      [
        'users',
        'add',
        '--login',
        'after-backup',
        '--password',
        'after-backup-pw',
        '--app',
        DEMO_IDS.app,
        '--store',
        DEMO_IDS.storeCentral,
        '--data-dir',
        hubDir,
      ],
      env,
    );
    await hub.stop();
    hub = undefined;

    await putBackByHand(hubDir, backup);
    const refused = await runCli(['serve', '--port', '0', '--data-dir', hubDir], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('behind');
    expect(refused.stderr).toContain('loyaltyd hub restored');
    expect(refused.stdout).not.toContain('serving');

    await restoreHub(hubDir, backup);
    hub = await startHub(hubDir, env);
  });
});
