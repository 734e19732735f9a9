/** A fixed offered rate of POSTs, as cash desks make it, for the benchmarks' latency figures. */
import autocannon from 'autocannon';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * A fixed offered rate as cash desks make it: each desk a connection sending `perDesk`
 * requests a second, the desks' seconds staggered across the second. autocannon's own
 * `overallRate` starts every connection's one-second window together (lib/run.js,
 * lib/httpClient.js), so each second's requests would leave in one burst and the p99 would
 * measure that queue. So each desk is its own autocannon run with one connection, started
 * 1/desks of a second after the one before, and the latencies of all runs are pooled.
 */
export async function fixedRate(url: string, headers: Record<string, string>, body: () => string, options: { desks: number; perDesk: number; seconds: number }) {
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    Array.from({ length: options.desks }, async (_, desk) => {
      await delay((desk * 1000) / options.desks);
      const result = await autocannon({
        url,
        method: 'POST',
        headers,
        connections: 1,
        connectionRate: options.perDesk,
        duration: options.seconds,
        requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: body() }) }],
        setupClient: (client) =>
          client.on('response', (status: number, _bytes: number, ms: number) => {
            latencies.push(ms);
            if (status >= 300) errors += 1;
          }),
      });
      errors += result.errors + result.timeouts;
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (share: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]!.toFixed(1) : '-');
  return { p50: at(0.5), p99: at(0.99), answered: latencies.length, errors };
}

