import { get as httpGet } from 'node:http';
import type { BenchContext } from './scenarios.ts';

/**
 * The documents the scenarios ask for, chosen by one rule on any dataset: each list is asked for with
 * filters (in start-date order, as the whole list is), so that a 100,000-event store is never listed
 * whole and the small one yields the ids it always has.
 */

export interface ListedEvent {
  id: string;
  eventStatus: string;
  competition: string;
}

export interface Fetched {
  body: Buffer;
  contentType: string;
  headers: Headers;
}

export function fetcher(baseUrl: string, headers: Record<string, string>) {
  /**
   * The exact body altsports answers, checked to be a 200: uncompressed, as the load generator (which
   * sends no Accept-Encoding) gets it, where fetch would ask for gzip.
   */
  const get = async (path: string): Promise<Fetched> => {
    const response = await fetch(baseUrl + path, { headers: { 'accept-encoding': 'identity', ...headers } });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200)
      throw new Error(`GET ${path} answered ${response.status}: ${body.toString('utf8').slice(0, 500)}`);
    return {
      body,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      headers: response.headers,
    };
  };
  const json = async <T>(path: string): Promise<T> => JSON.parse((await get(path)).body.toString('utf8')) as T;
  return { get, json };
}

export type Fetcher = ReturnType<typeof fetcher>;

/** What a raw server must add to the body to put altsports's bytes on the wire (Node adds the rest). */
export function headersToCopy(headers: Headers): Record<string, string> {
  const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-type']);
  return Object.fromEntries([...headers].filter(([name]) => !own.has(name)));
}

const list = (query: Record<string, string>) => `/api/v1/public/events?${new URLSearchParams(query).toString()}`;

/**
 * `like`: the context chosen on another dataset, whose competitions are kept, so that the documents
 * compared across datasets are of one kind and size (the first finished event of all is a surf contest
 * on one dataset and a motocross round on another).
 */
export async function chooseContext(api: Fetcher, like?: BenchContext): Promise<BenchContext> {
  const likeCompetition = like?.eventId.split(':')[0];
  // A finished event has rounds and heats: the fuller document is the more telling one to serve.
  const [event] = await api.json<ListedEvent[]>(
    list({ eventStatus: 'COMPLETED', limit: '1', ...(likeCompetition ? { competition: likeCompetition } : {}) }),
  );
  const first = event ?? (await api.json<ListedEvent[]>(list({ limit: '1' })))[0];
  if (!first) throw new Error('the demo data has no events');
  // Heat scores: a finished supercross main, whose rows carry lap statistics derived from every lap.
  const [race = first] = await api.json<ListedEvent[]>(
    list({ competition: 'spr', eventStatus: 'COMPLETED', limit: '1' }),
  );
  const document = await api.json<{ rounds: Array<{ heats: Array<{ id: string }> }> }>(
    `/api/v1/public/events/${race.id}`,
  );
  const heat = document.rounds.flatMap((r) => r.heats).at(-1);
  if (!heat) throw new Error(`event ${race.id} has no heats`);
  return {
    eventId: first.id,
    raceId: race.id,
    heatId: heat.id,
    oddsEventId: await chooseOddsEvent(api),
    oddType: 'eventWinner',
  };
}

/** Odds and parlays: a supercross (else Formula 1) event still to run whose eventWinner market is open. */
async function chooseOddsEvent(api: Fetcher): Promise<string> {
  for (const competition of ['spr', 'f1']) {
    for (const status of ['UPCOMING', 'NEXT', 'LIVE']) {
      for (const candidate of await api.json<ListedEvent[]>(list({ competition, eventStatus: status, limit: '50' }))) {
        const outcomes = await api
          .json<{ eventWinner: Array<{ status: string }> }>(
            `/api/v1/public/events/${encodeURIComponent(candidate.id)}/eventWinner`,
          )
          .catch(() => null);
        if (outcomes && outcomes.eventWinner.filter((o) => o.status === 'OPEN').length >= 8) return candidate.id;
      }
    }
  }
  throw new Error('the demo data has no spr or f1 event to run with an open eventWinner market');
}

/** How many bytes of body a GET puts on the wire, coded or not (fetch would count them decoded). */
export function wireBytes(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () =>
        response.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${url} answered ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
  });
}
