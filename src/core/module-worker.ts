/**
 * A worker thread running a module that sits beside its caller: the compiled `.js` in a build;
 * under the TypeScript sources (tests and benches, run from the project's folder) the `.ts`,
 * after the thread registers tsx, which a worker does not inherit.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * `callerUrl` is the caller's `import.meta.url`; `name` the module's file name without its
 * extension; `resourceLimits` those of the thread's heap (Node's defaults when absent).
 */
export function moduleWorker(callerUrl: string, name: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), { workerData, resourceLimits });
  const source = new URL(`./${name}.ts`, callerUrl).href;
  return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, {
    eval: true,
    workerData,
    resourceLimits,
  });
}
