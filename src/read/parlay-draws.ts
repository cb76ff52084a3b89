import { Worker } from 'node:worker_threads';
import type { ResultsFormat } from '../domain/competitions.ts';
import { MatchSamples, type SimulatedScores } from '../domain/pricing/match-samples.ts';
import { ScopeSamples } from '../domain/pricing/parlay.ts';
import type { TeamMatchModel } from '../domain/pricing/team-match-model.ts';

/**
 * The simulations same game parlays are priced over, drawn on a worker thread. A 30-rider scope is
 * 267,000 orders, about 0.9 s of CPU, and 100,000 team matches 0.12 to 0.19 s: drawn on the event
 * loop, they stopped every other request for that long at the first parlay after a price moved
 * (measured by `npm run soak`). Draws are seeded, so the worker draws exactly what the event loop would have.
 */

/** A scope's finishing orders (`ScopeSamples.fitted`). */
export interface ScopeDraw {
  /** Athlete ids, in the order of `win`. */
  runners: string[];
  /** Win probabilities, margin taken out. */
  win: number[];
  shape: number;
  /** The recorded model's strengths (in the order of `runners`): drawn from as they are, not fitted to `win`. */
  strengths?: number[];
  samples: number;
  seed: number;
}

/** A team match's scores (`MatchSamples.simulate`). */
export interface MatchDraw {
  format: ResultsFormat;
  model: TeamMatchModel;
  samples: number;
  seed: number;
}

export type DrawRequest = ({ kind: 'scope' } & ScopeDraw) | ({ kind: 'match' } & MatchDraw);

type Reply =
  | { id: number; places: Uint8Array | Uint16Array }
  | { id: number; scores: SimulatedScores }
  | { id: number; error: string };

interface Job {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

let worker: Worker | null = null;
const jobs = new Map<number, Job>();
let nextId = 0;

function startWorker(): Worker {
  // Worker threads do not inherit the process's loader hooks (`--import tsx`, or bin/altsports.js's
  // register()): the thread registers tsx itself before it loads its TypeScript.
  const tsx = import.meta.resolve('tsx/esm/api');
  const script = new URL('./parlay-draw-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(script)}); });`;
  const thread = new Worker(boot, { eval: true });
  thread.on('message', (reply: Reply) => {
    const job = jobs.get(reply.id);
    if (!job) return;
    jobs.delete(reply.id);
    if (jobs.size === 0) thread.unref();
    if ('error' in reply) job.reject(new Error(`Drawing a parlay simulation failed: ${reply.error}`));
    else job.resolve(reply);
  });
  const fail = (error: Error) => {
    if (worker === thread) worker = null;
    for (const [id, job] of jobs) {
      jobs.delete(id);
      job.reject(error);
    }
  };
  thread.on('error', fail);
  thread.on('exit', (code) => fail(new Error(`The parlay draw worker exited (code ${code})`)));
  return thread;
}

/**
 * The worker's answer to one draw (the thread starts on first use; one that died is replaced on the
 * next draw). The thread holds the process open only while a draw is under way.
 */
function draw(request: DrawRequest): Promise<Reply> {
  worker ??= startWorker();
  const thread = worker;
  return new Promise((resolve, reject) => {
    const id = nextId++;
    jobs.set(id, { resolve, reject });
    thread.ref();
    thread.postMessage({ id, request });
  });
}

export async function drawScope(scope: ScopeDraw): Promise<ScopeSamples> {
  const reply = await draw({ kind: 'scope', ...scope });
  if (!('places' in reply)) throw new Error('the parlay draw worker answered a scope draw with something else');
  return ScopeSamples.fromPlaces(scope.runners, scope.samples, reply.places);
}

export async function drawMatches(match: MatchDraw): Promise<MatchSamples> {
  const reply = await draw({ kind: 'match', ...match });
  if (!('scores' in reply)) throw new Error('the parlay draw worker answered a match draw with something else');
  return MatchSamples.fromScores(match.samples, reply.scores);
}
