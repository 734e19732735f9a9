/**
 * Vitest's setup of every test file: the process's HTTP clients (fetch, undici's request)
 * trust the run's private CA beside the system's, as a POS and an operator's tools trust
 * their chain's CA, so a test calls a hub on https as it calls one on http. A store's own
 * client to its hub trusts only what its config says (src/sync/store/hub-client.ts).
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, setGlobalDispatcher } from 'undici';
import { testPki } from './test-pki.js';

setGlobalDispatcher(new Agent({ connect: { ca: [...rootCertificates, readFileSync(testPki().caCert, 'utf8')] } }));
