/** A fixed offered rate of POSTs, as cash desks make it, or of GETs, for the benchmarks' latency figures. */
import { moduleWorker } from '../../src/core/module-worker.js';
import type { FixedRateResult, FixedRateWork } from './fixed-rate-worker.js';

/**
 * A fixed offered rate as cash desks make it: each desk a connection sending `perDesk`
 * requests a second, the desks' seconds staggered across the second. autocannon's own
 * `overallRate` starts every connection's one-second window together (lib/run.js,
 * lib/httpClient.js), so each second's requests would leave in one burst and the p99 would
 * measure that queue. So each desk is its own autocannon run with one connection, started
 * 1/desks of a second after the one before, and the latencies of all runs are pooled.
 * Within its second a desk still sends its requests one after another, each as the answer
 * before it comes: autocannon's rate is a budget per second. Sends paced evenly across the
 * second measured slower on this machine, not faster (test/bench/README.md, ninth session).
 *
 * The desks run in a worker thread (fixed-rate-worker.ts), as tills are machines of their
 * own: in the bench's main thread, its own collections (5–7 ms each in the fleet bench's
 * soak) and its other work were counted in the store's latency. Each desk's bodies are made
 * here first, a few more than its rate sends, each used once.
 */
export async function fixedRate(
  url: string,
  headers: Record<string, string>,
  body: () => string,
  options: { desks: number; perDesk: number; seconds: number; method?: 'GET' | 'POST' },
) {
  const method = options.method ?? 'POST';
  const perDeskBodies = method === 'GET' ? 0 : Math.ceil(options.perDesk * options.seconds * 1.1) + 10;
  const work: FixedRateWork = {
    url,
    method,
    headers,
    bodies: Array.from({ length: options.desks }, () => Array.from({ length: perDeskBodies }, body)),
    perDesk: options.perDesk,
    seconds: options.seconds,
  };
  const { latencies, errors } = await new Promise<FixedRateResult>((resolve, reject) => {
    const worker = moduleWorker(import.meta.url, 'fixed-rate-worker', work);
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the load's worker exited with ${code} before its result`)));
  });
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]!.toFixed(1) : '-';
  return { p50: at(0.5), p99: at(0.99), answered: latencies.length, errors };
}
