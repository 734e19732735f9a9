/**
 * The load of fixed-rate.ts, in a worker thread of its own: autocannon runs, one per desk, on
 * bodies made before the run. What the bench's main thread does meanwhile (its garbage
 * collections, a store's IPC, a sync round it drives) does not hold the desks' requests or
 * the reading of their answers.
 */
import autocannon from 'autocannon';
import { setTimeout as delay } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

/** What fixed-rate.ts starts the worker with. */
export interface FixedRateWork {
  url: string;
  /** POST, each request with the next of its desk's bodies; GET, with none. */
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** The bodies of each desk's requests, in the order it sends them. */
  bodies: string[][];
  perDesk: number;
  seconds: number;
}

/** What the worker posts back once every desk has finished. */
export interface FixedRateResult {
  latencies: number[];
  errors: number;
}

const work = workerData as FixedRateWork;
const latencies: number[] = [];
let errors = 0;
await Promise.all(
  work.bodies.map(async (bodies, desk) => {
    await delay((desk * 1000) / work.bodies.length);
    let next = 0;
    const result = await autocannon({
      url: work.url,
      method: work.method,
      headers: work.headers,
      connections: 1,
      connectionRate: work.perDesk,
      duration: work.seconds,
      requests: [
        work.method === 'GET'
          ? { method: 'GET' }
          : { method: 'POST', setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) },
      ],
      setupClient: (client) =>
        client.on('response', (status: number, _bytes: number, ms: number) => {
          latencies.push(ms);
          if (status >= 300) errors += 1;
        }),
    });
    errors += result.errors + result.timeouts;
  }),
);
parentPort!.postMessage({ latencies, errors } satisfies FixedRateResult);
