import { recentChangeId } from '../../read/change-stream.ts';
import { getEventDocument, listEvents, resolveEvent } from '../../read/events.ts';
import { listFutures } from '../../read/futures.ts';
import { getEventOdds } from '../../read/odds.ts';
import { PUBLIC_PREFIX } from '../../read/public-paths.ts';
import type { AthleteOdd } from '../../shapes/odds.ts';
import type { Store } from '../../store/database.ts';

/**
 * Example values for the docs page, chosen from the store when the page loads its document
 * (GET /docs/json), so that every "Try it out" runs against data this server holds: the demo's ids
 * while the demo is loaded, an operator's otherwise. Only the docs page's copy of the document gets
 * them; the published document (/api/v1/public/openapi.json, from which the client types are
 * generated) stays the same whatever the store holds.
 */
export interface DocsExamples {
  /** An athlete event with heats (a live WSL event when there is one). */
  event?: { id: string; competition: string; name: string; heatId?: string };
  /** An event with open eventWinner odds, and two odds of it that a parlay accepts. */
  odds?: { eventId: string; oddIds: [string, string] | null };
  sport: Partial<Record<'gsoc' | 'mltt' | 'nll' | '3ice' | 'jaialai', string>>;
  jaiAlaiCardId?: string;
  tourYearId3ice?: string;
  future?: { sportType: string; tourId: string; futureType: string };
  /** A change id the change log holds, a few before its end: GET /changes reads on from it. */
  changeId?: number;
}

interface ListedEvent {
  id: string;
  competition: string;
  name: string;
  eventStatus: string;
  cardId?: string;
}

const SPORT_ROUTES = ['gsoc', 'mltt', 'nll', '3ice', 'jaialai'] as const;
/** How many event documents (and odds documents) to look at before giving up on a kind of example. */
const CANDIDATES = 6;

export async function findDocsExamples(store: Store): Promise<DocsExamples> {
  const all = (await listEvents(store, {}, null)).items as ListedEvent[];
  // Live first (WSL first among them), then what is next, then the rest: the ids most worth trying.
  const rank = (e: ListedEvent) =>
    e.eventStatus === 'LIVE'
      ? e.competition === 'wsl'
        ? 0
        : 1
      : e.eventStatus === 'NEXT' || e.eventStatus === 'UPCOMING'
        ? 2
        : 3;
  const ordered = all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);

  const examples: DocsExamples = { sport: {} };
  const changeId = await recentChangeId(store);
  if (changeId !== undefined) examples.changeId = changeId;
  for (const listed of ordered
    .filter((e) => !(SPORT_ROUTES as readonly string[]).includes(e.competition))
    .slice(0, CANDIDATES)) {
    const document = await getEventDocument(store, listed.id, null);
    const heats = document.rounds.flatMap((round) => round.heats);
    if (heats.length === 0) continue;
    const heat = heats.find((h) => h.heatStatus === 'LIVE') ?? heats[0];
    examples.event = { id: listed.id, competition: listed.competition, name: listed.name, heatId: heat?.id };
    break;
  }

  // An event with open winner odds, preferably one where a parlay of two of them can be priced too.
  const tried = new Set<string>();
  for (const listed of [
    ...(examples.event ? [examples.event] : []),
    ...ordered.filter((e) => e.eventStatus === 'LIVE' || e.eventStatus === 'UPCOMING'),
  ]) {
    if (tried.has(listed.id) || tried.size >= CANDIDATES) continue;
    tried.add(listed.id);
    const winners = await oddsOf(store, listed.id, 'eventWinner');
    if (winners.length === 0) continue;
    const oddIds = parlayPair(winners, await oddsOf(store, listed.id, 'secondPlace'));
    examples.odds ??= { eventId: listed.id, oddIds };
    if (oddIds) {
      examples.odds = { eventId: listed.id, oddIds };
      break;
    }
  }

  for (const sport of SPORT_ROUTES) {
    const listed = ordered.find((e) => e.competition === sport);
    if (!listed) continue;
    examples.sport[sport] = listed.id;
    if (sport === 'jaialai' && listed.cardId) examples.jaiAlaiCardId = listed.cardId;
    if (sport === '3ice')
      examples.tourYearId3ice = (await resolveEvent(store, listed.id, null)).tourYearId ?? undefined;
  }

  const future = (await listFutures(store, null))[0];
  if (future)
    examples.future = { sportType: future.id.split(':')[0] as string, tourId: future.tourId, futureType: future.type };
  return examples;
}

async function oddsOf(store: Store, eventId: string, oddType: 'eventWinner' | 'secondPlace'): Promise<AthleteOdd[]> {
  try {
    const document = await getEventOdds(store, eventId, oddType, {}, null);
    return (document[oddType] ?? []).filter((o) => o.status === 'OPEN');
  } catch {
    return []; // a competition that does not offer the odd type
  }
}

/** The favourite to win and another athlete to come second: two legs that can both win. */
function parlayPair(winners: AthleteOdd[], seconds: AthleteOdd[]): [string, string] | null {
  const athleteOf = (odd: AthleteOdd | undefined) => odd?.athlete?.id;
  const winner = winners[0];
  const second = seconds.find((o) => athleteOf(o) !== undefined && athleteOf(o) !== athleteOf(winner));
  return winner && second ? [winner.id, second.id] : null;
}

interface Parameter {
  name?: string;
  in?: string;
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
}
/** The part of an OpenAPI document that examples are written into. */
export interface DocumentPaths {
  paths?: Record<string, Record<string, Operation>>;
}

/** `<method> <path template>` → the examples of its parameters, and of its request body. */
export function examplesByOperation(
  examples: DocsExamples,
): Map<string, { parameters: Record<string, unknown>; body?: unknown }> {
  const out = new Map<string, { parameters: Record<string, unknown>; body?: unknown }>();
  const set = (method: string, path: string, parameters: Record<string, unknown>, body?: unknown) => {
    const defined = Object.fromEntries(Object.entries(parameters).filter(([, v]) => v !== undefined));
    if (Object.keys(defined).length > 0 || body !== undefined)
      out.set(`${method} ${PUBLIC_PREFIX}${path}`, { parameters: defined, ...(body === undefined ? {} : { body }) });
  };
  const { event, odds, sport } = examples;
  if (event) {
    set('get', '/events', { competition: event.competition, eventStatus: ['LIVE'] });
    set('get', '/stream', { competition: [event.competition] });
    set('get', '/events/{eventId}', { eventId: event.id });
    set('get', '/events/{eventId}/participants', { eventId: event.id });
    set('get', '/events/{eventId}/heats/{heatId}', { eventId: event.id, heatId: event.heatId });
  }
  if (odds) {
    set('get', '/events/{eventId}/{oddType}', {
      eventId: odds.eventId,
      oddType: 'eventWinner',
      oddsFormat: 'american',
    });
    set('get', '/odds', { eventId: odds.eventId, status: 'OPEN', oddsFormat: 'fractional' });
    // The favourite's price history, when a parlay pair was found; else the event's winner market.
    set('get', '/events/{eventId}/odds-history', {
      eventId: odds.eventId,
      ...(odds.oddIds ? { outcomeId: odds.oddIds[0] } : { oddType: 'eventWinner' }),
    });
    set('post', '/events/{eventId}/sgp', { eventId: odds.eventId }, odds.oddIds ? { oddIds: odds.oddIds } : undefined);
    // The bet builder from the first leg of that parlay: what combines with it.
    set(
      'post',
      '/events/{eventId}/sgp/options',
      { eventId: odds.eventId },
      { oddIds: odds.oddIds ? odds.oddIds.slice(0, 1) : [] },
    );
  }
  for (const key of ['gsoc', 'mltt', 'nll', '3ice'] as const)
    set('get', `/events/${key}/{eventId}`, { eventId: sport[key] });
  for (const key of ['gsoc', 'mltt', 'nll', 'jaialai'] as const)
    set('get', `/events/${key}/{id}/odds`, { id: sport[key] });
  set('get', '/events/jaialai/{id}', { id: examples.jaiAlaiCardId });
  set('get', '/events/3ice/bracket/{tourYearId}', { tourYearId: examples.tourYearId3ice });
  if (examples.future) set('get', '/futures/{sportType}/tour/{tourId}/odds/{futureType}', { ...examples.future });
  if (examples.changeId !== undefined) set('get', '/changes', { after: examples.changeId });
  return out;
}

/** Writes the examples into a copy of the OpenAPI document: Swagger UI pre-fills "Try it out" with them. */
export function applyDocsExamples(document: DocumentPaths, examples: DocsExamples): void {
  const byOperation = examplesByOperation(examples);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const found = byOperation.get(`${method} ${path}`);
      if (!found) continue;
      for (const parameter of operation.parameters ?? []) {
        if (
          (parameter.in === 'path' || parameter.in === 'query') &&
          parameter.name &&
          parameter.name in found.parameters
        )
          parameter.example = found.parameters[parameter.name];
      }
      const json = operation.requestBody?.content?.['application/json'];
      if (json && found.body !== undefined) json.example = found.body;
    }
  }
}
