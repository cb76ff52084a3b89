import { Worker } from 'node:worker_threads';
import { ScopeSamples } from '../domain/pricing/parlay.ts';

/**
 * A scope's simulated finishing orders for same game parlays, drawn on a worker thread. A 30-rider
 * scope is 267,000 orders, about 0.9 s of CPU: drawn on the event loop, it stopped every other
 * request for that long at the first parlay after a winner price moved (BENCHMARKS.md "Soak"). The
 * draw is seeded, so the worker draws exactly the samples the event loop would have.
 */

export interface ScopeDraw {
  /** Athlete ids, in the order of `win`. */
  runners: string[];
  /** Win probabilities, margin taken out. */
  win: number[];
  shape: number;
  samples: number;
  seed: number;
}

type Reply = { id: number; places: Uint8Array | Uint16Array } | { id: number; error: string };

interface Job {
  draw: ScopeDraw;
  resolve(samples: ScopeSamples): void;
  reject(error: Error): void;
}

let worker: Worker | null = null;
const jobs = new Map<number, Job>();
let nextId = 0;

function startWorker(): Worker {
  // Worker threads do not inherit the process's loader hooks (`--import tsx`, or bin/altsports.js's
  // register()): the thread registers tsx itself before it loads its TypeScript.
  const tsx = import.meta.resolve('tsx/esm/api');
  const script = new URL('./scope-draw-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(script)}); });`;
  const thread = new Worker(boot, { eval: true });
  thread.on('message', (reply: Reply) => {
    const job = jobs.get(reply.id);
    if (!job) return;
    jobs.delete(reply.id);
    if (jobs.size === 0) thread.unref();
    if ('places' in reply) job.resolve(ScopeSamples.fromPlaces(job.draw.runners, job.draw.samples, reply.places));
    else job.reject(new Error(`Drawing a parlay scope failed: ${reply.error}`));
  });
  const fail = (error: Error) => {
    if (worker === thread) worker = null;
    for (const [id, job] of jobs) {
      jobs.delete(id);
      job.reject(error);
    }
  };
  thread.on('error', fail);
  thread.on('exit', (code) => fail(new Error(`The parlay scope worker exited (code ${code})`)));
  return thread;
}

/**
 * The scope's samples, drawn on the worker thread (started on first use; a thread that died is
 * replaced on the next draw). The thread holds the process open only while a draw is under way.
 */
export function drawScope(draw: ScopeDraw): Promise<ScopeSamples> {
  worker ??= startWorker();
  const thread = worker;
  return new Promise((resolve, reject) => {
    const id = nextId++;
    jobs.set(id, { draw, resolve, reject });
    thread.ref();
    thread.postMessage({ id, draw });
  });
}
