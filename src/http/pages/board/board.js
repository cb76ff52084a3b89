// The live board: every live event with its heat scores (or team scores) and event-winner odds,
// kept current from the push stream. A plain ES module: no framework, no build step, nothing from a CDN.
//
// How it stays current: the stream says what changed (`heatScore`, `odds`, `event`, `settlement`), and the
// board refetches only the documents of that event the change touches, with If-None-Match, so an unchanged
// one costs a 304; price ticks carry their new prices and need no request at all. That keeps a board with
// every live event of a busy server within one key's rate limit. The stream is read with fetch, not
// EventSource, because the board runs its own reconnects (on silence, resuming with Last-Event-ID); it is
// opened with a short-lived stream token rather than the key (POST /stream/tokens).

import { createParser } from './eventsource-parser.js';

const API = '/api/v1/public';
const KEY_STORAGE = 'altsports.apiKey';
const STREAM_KINDS = 'event,heatScore,odds,settlement';
/** Changes to one event that arrive within this time are fetched once. */
const COALESCE_MS = 300;
/** At most one refresh of an event per this time: a busy event must not spend the key's rate limit. */
const MIN_REFRESH_MS = 2_000;
/** A stream silent for longer than this (heartbeats come every 15 s by default) is reconnected. */
const IDLE_MS = 45_000;
const MAX_RECONNECT_MS = 30_000;
const MAX_ROWS = 8;
const MAX_ODDS = 5;
const MAX_PARALLEL = 4;
/** An event that is over stays on the board this long, showing its final state. */
const LINGER_MS = 60_000;

const $ = (selector) => document.querySelector(selector);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- the key

const storage = {
  get() {
    try {
      return localStorage.getItem(KEY_STORAGE);
    } catch {
      return null; // storage disabled
    }
  },
  set(value) {
    try {
      if (value === null) localStorage.removeItem(KEY_STORAGE);
      else localStorage.setItem(KEY_STORAGE, value);
    } catch {
      // storage disabled: the key lasts for this page only
    }
  },
};

/** `?key=` (kept for next time, and taken out of the address bar), else a key kept before, else the server's demo key. */
function chooseKey() {
  const params = new URLSearchParams(location.search);
  const fromQuery = params.get('key');
  if (fromQuery) {
    storage.set(fromQuery);
    params.delete('key');
    const rest = params.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}`);
    return { key: fromQuery, own: true };
  }
  const kept = storage.get();
  if (kept) return { key: kept, own: true };
  const demo = document.querySelector('meta[name="altsports-demo-key"]')?.content;
  return demo ? { key: demo, own: false } : { key: null, own: false };
}

let apiKey = null;

function askForKey(message) {
  setStatus('key-needed', 'Key needed');
  $('#key-message').textContent = message;
  $('#key-form').hidden = false;
}

// ---------------------------------------------------------------- fetching, with ETags

class HttpError extends Error {
  constructor(status, message, retryAfterSeconds) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** url -> { etag, body }: the copy that If-None-Match revalidates. */
const copies = new Map();
let active = 0;
const waiting = [];
/** Set on a 429: no request until then. */
let pausedUntil = 0;

async function slot() {
  while (active >= MAX_PARALLEL) await new Promise((resolve) => waiting.push(resolve));
  active += 1;
}
function release() {
  active -= 1;
  waiting.shift()?.();
}

/** GET a public document; resolves to the body (the kept copy on a 304). */
async function getDocument(path) {
  const url = `${API}${path}`;
  await slot();
  try {
    if (Date.now() < pausedUntil) await sleep(pausedUntil - Date.now());
    const copy = copies.get(url);
    const headers = { 'x-api-key': apiKey, accept: 'application/json' };
    if (copy) headers['if-none-match'] = copy.etag;
    // Conditional headers of our own: the browser's cache stays out of it and the 304 reaches us.
    const response = await fetch(url, { headers, cache: 'no-store' });
    if (response.status === 304 && copy) return copy.body;
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      const retryAfter = Number(response.headers.get('retry-after')) || 0;
      if (response.status === 429) pausedUntil = Date.now() + Math.max(1, retryAfter) * 1000;
      throw new HttpError(response.status, body?.message ?? `HTTP ${response.status}`, retryAfter);
    }
    const body = await response.json();
    const etag = response.headers.get('etag');
    if (etag) copies.set(url, { etag, body });
    return body;
  } finally {
    release();
  }
}

// ---------------------------------------------------------------- rendering

/** Sets an element's text; a change to a value already shown flashes. */
function setText(element, text) {
  const value = String(text);
  if (element.textContent === value) return;
  const shown = element.dataset.shown === 'true';
  element.textContent = value;
  element.dataset.shown = 'true';
  if (!shown) return;
  element.classList.remove('flash');
  void element.offsetWidth; // restart the animation
  element.classList.add('flash');
}

function create(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') element.className = value;
    else if (name === 'text') element.textContent = value;
    else element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

/** Keeps `parent`'s children keyed by `data-key` in the order of `items`: existing ones are updated in place (so changes flash). */
function reconcile(parent, items, keyOf, make, update) {
  const existing = new Map([...parent.children].map((child) => [child.dataset.key, child]));
  const wanted = new Set();
  let previous = null;
  for (const item of items) {
    const key = keyOf(item);
    wanted.add(key);
    let element = existing.get(key);
    if (!element) {
      element = make(item);
      element.dataset.key = key;
    }
    update(element, item);
    const next = previous ? previous.nextSibling : parent.firstChild;
    if (next !== element) parent.insertBefore(element, next);
    previous = element;
  }
  for (const [key, element] of existing) if (!wanted.has(key)) element.remove();
}

const athleteName = (athlete) => (athlete ? [athlete.firstName, athlete.lastName].filter(Boolean).join(' ') : '');
const outcomeName = (odd) => athleteName(odd.athlete) || odd.team?.name || odd.name || odd.selection || odd.id;

const has = (value) => value !== null && value !== undefined;
/** A number with at most `digits` decimals and none it does not need: 83, 15.5, 119.051. */
const trimmed = (value, digits = 2) => String(Number(value.toFixed(digits)));
/** Sports whose heat score is a time, and those whose heat score is strokes against par. */
const TIMED_SPORTS = new Set(['swimming', 'drag-racing']);
const STROKE_SPORTS = new Set(['disc-golf']);

/** The number that matters for this sport's row, with its unit: judged points, a ride, strokes, a time. */
function scoreText(row) {
  if (has(row.athleteHeatScore)) {
    const score = row.athleteHeatScore;
    if (TIMED_SPORTS.has(row.sportKey)) return `${trimmed(score, 3)} s`;
    if (STROKE_SPORTS.has(row.sportKey)) return score === 0 ? 'even par' : `${score > 0 ? '+' : ''}${score} strokes`;
    return `${trimmed(score)} pts`;
  }
  if (has(row.riderScore)) return `${trimmed(row.riderScore)} pts`;
  if (has(row.roundScore)) return `${trimmed(row.roundScore)} pts`;
  if (has(row.athleteLapTime)) return `${trimmed(row.athleteLapTime, 3)} s`;
  return '–';
}

/** Competitions with routes of their own (8 to 17), whose matches are priced by /events/{sport}/{id}/odds. */
const MATCH_SPORTS = new Set(['gsoc', 'mltt', 'nll', '3ice', 'jaialai']);
const sportOf = (id) => id.split(':')[0];

/** One outcome of a match line under its side's column: "+2.5", "O 10.5", or nothing for the moneyline. */
function pickText(label, odd) {
  const side = odd.side ?? odd.type;
  const line = label === 'Moneyline' ? null : (odd.line ?? odd.sets ?? null);
  if (line === null) return '';
  if (side === 'OVER' || side === 'UNDER') return `${side === 'OVER' ? 'O' : 'U'} ${line}`;
  return `${line > 0 ? '+' : ''}${line}`;
}

/** The two sides' names, home first: teams, or a Jai Alai match's pairs. */
function sideNames(document, selection) {
  const first = selection?.[0] ?? {};
  return [document.homeTeam?.name ?? first.homeLineup ?? 'Home', document.awayTeam?.name ?? first.awayLineup ?? 'Away'];
}

/** The match's moneyline, spread and total, from a sport-specific odds document (section 2.6 or 2.8). */
function matchLines(document) {
  const match = document.event ?? document.matchWinner;
  if (!match) return { sides: [], lines: [] };
  const markets = [
    ['Moneyline', match.moneyLine],
    ['Spread', match.spread?.[0]],
    ['Total', match.total?.[0]],
  ].filter(([, market]) => market?.selection?.length > 0);
  const lines = markets.map(([label, market]) => ({
    id: String(market.id ?? market.marketId),
    label,
    picks: market.selection.map((odd) => ({
      id: odd.id,
      status: odd.status,
      statusReason: odd.statusReason,
      odds: odd.odds,
      text: pickText(label, odd),
    })),
  }));
  return { sides: sideNames(document, match.moneyLine?.selection), lines };
}

/** The heats worth showing: those in play, else the last one finished, else the next. */
function shownHeats(document) {
  const heats = document.rounds.flatMap((round) =>
    round.heats.map((heat) => ({ ...heat, roundName: round.roundName })),
  );
  const live = heats.filter((heat) => heat.heatStatus === 'LIVE');
  if (live.length > 0) return live.slice(0, 2);
  const completed = heats.filter((heat) => heat.heatStatus === 'COMPLETED');
  if (completed.length > 0) return completed.slice(-1);
  return heats.slice(0, 1);
}

function teamScores(document) {
  const totals = new Map(document.teams.map((team) => [team.id, 0]));
  for (const round of document.rounds)
    for (const score of round.scores) totals.set(score.teamId, (totals.get(score.teamId) ?? 0) + score.goals);
  return document.teams.map((team) => ({ id: team.id, name: team.name, score: totals.get(team.id) ?? 0 }));
}

function makeCard(id) {
  return create('article', { class: 'card', 'data-event-id': id, 'data-testid': 'event-card' }, [
    create('div', { class: 'card-head' }, [
      create('span', { class: 'competition', 'data-testid': 'competition' }),
      create('span', { class: 'tag feed-stale', 'data-testid': 'feed-stale', text: 'feed stale', hidden: '' }),
      create('span', { class: 'event-status', 'data-testid': 'event-status' }),
    ]),
    create('h2', { class: 'event-name', 'data-testid': 'event-name' }),
    create('p', { class: 'where' }),
    create('section', { class: 'teams', 'data-testid': 'teams', hidden: '' }, [
      create('h3', {}, [create('span', { text: 'Score' }), create('span', { class: 'tag period' })]),
      create('ol', { class: 'team-scores' }),
    ]),
    create('div', { class: 'heats', 'data-testid': 'heats' }),
    create('section', { class: 'match-odds', 'data-testid': 'match-odds', hidden: '' }, [
      create('h3', {}, [create('span', { text: 'Match' }), create('span', { class: 'tag', text: 'decimal' })]),
      create('div', { class: 'line sides' }, [
        create('span', { class: 'label' }),
        create('span', { class: 'home name' }),
        create('span', { class: 'away name' }),
      ]),
      create('ol', { class: 'lines' }),
    ]),
    create('section', { class: 'odds', 'data-testid': 'event-winner', hidden: '' }, [
      create('h3', {}, [create('span', { text: 'To win' }), create('span', { class: 'tag', text: 'decimal' })]),
      create('ol', { class: 'odds-list' }),
    ]),
  ]);
}

function renderEvent(entry) {
  const { card, document, heats, winners } = entry;
  if (!document) return;
  card.dataset.status = document.eventStatus;
  if (document.eventStatus !== 'LIVE' && !entry.leaving)
    entry.leaving = setTimeout(() => dropEvent(entry.id), LINGER_MS);
  card.dataset.competition = document.sportId;
  setText(card.querySelector('.competition'), competitions.get(document.sportId)?.name ?? document.sportId);
  setText(card.querySelector('.event-status'), document.eventStatus);
  setText(card.querySelector('.event-name'), document.name);
  setText(card.querySelector('.where'), document.eventLocation ?? '');

  const teams = card.querySelector('.teams');
  teams.hidden = document.teams.length === 0;
  if (!teams.hidden) {
    const period =
      [...document.rounds].reverse().find((round) => round.roundStatus === 'LIVE') ??
      [...document.rounds].reverse().find((round) => round.roundStatus === 'COMPLETED');
    setText(teams.querySelector('.period'), period ? period.roundName : '');
    reconcile(
      teams.querySelector('ol'),
      teamScores(document),
      (team) => team.id,
      (team) =>
        create('li', { class: 'team-row', 'data-team-id': team.id, 'data-testid': 'team-row' }, [
          create('span', { class: 'name' }),
          create('span', { class: 'score', 'data-testid': 'team-score' }),
        ]),
      (element, team) => {
        setText(element.querySelector('.name'), team.name);
        setText(element.querySelector('.score'), team.score);
      },
    );
  }

  reconcile(
    card.querySelector('.heats'),
    entry.shown,
    (heat) => heat.id,
    (heat) =>
      create('section', { class: 'heat', 'data-heat-id': heat.id, 'data-testid': 'heat' }, [
        create('h3', {}, [
          create('span', { class: 'heat-name' }),
          create('span', { class: 'tag heat-status', 'data-testid': 'heat-status' }),
        ]),
        create('ol', { class: 'rows' }),
        create('p', { class: 'more', hidden: '' }),
      ]),
    (element, heat) => {
      setText(element.querySelector('.heat-name'), `${heat.roundName} · ${heat.heatName}`);
      setText(element.querySelector('.heat-status'), heat.heatStatus);
      const rows = heats.get(heat.id) ?? [];
      reconcile(
        element.querySelector('.rows'),
        rows.slice(0, MAX_ROWS),
        (row) => row.id,
        (row) =>
          create(
            'li',
            {
              class: 'row',
              'data-entry-id': row.id,
              'data-athlete-id': row.athlete?.id ?? '',
              'data-testid': 'score-row',
            },
            [
              create('span', { class: 'rank' }),
              create('span', { class: 'name' }),
              create('span', { class: 'score', 'data-testid': 'heat-score' }),
            ],
          ),
        (li, row) => {
          setText(li.querySelector('.rank'), row.athleteRoundRank ?? '–');
          setText(li.querySelector('.name'), athleteName(row.athlete) || row.athlete?.id || '');
          setText(li.querySelector('.score'), scoreText(row));
        },
      );
      const more = element.querySelector('.more');
      more.hidden = rows.length <= MAX_ROWS;
      more.textContent = `+${rows.length - MAX_ROWS} more`;
    },
  );

  const match = card.querySelector('.match-odds');
  const { sides, lines } = entry.match ?? { sides: [], lines: [] };
  match.hidden = lines.length === 0;
  setText(match.querySelector('.home'), sides[0] ?? '');
  setText(match.querySelector('.away'), sides[1] ?? '');
  reconcile(
    match.querySelector('ol'),
    lines,
    (line) => line.id,
    (line) =>
      create('li', { class: 'line', 'data-market-id': line.id, 'data-testid': 'match-line' }, [
        create('span', { class: 'label' }),
        create('span', { class: 'picks' }),
      ]),
    (li, line) => {
      setText(li.querySelector('.label'), line.label);
      reconcile(
        li.querySelector('.picks'),
        line.picks,
        (pick) => pick.id,
        (pick) =>
          create('span', { class: 'pick', 'data-odd-id': pick.id }, [
            create('span', { class: 'handicap' }),
            create('span', { class: 'price', 'data-testid': 'odd-price' }),
          ]),
        (element, pick) => {
          markStatus(element, pick);
          setText(element.querySelector('.handicap'), pick.text);
          setText(element.querySelector('.price'), pick.status === 'OPEN' ? pick.odds.toFixed(2) : statusText(pick));
        },
      );
    },
  );

  const odds = card.querySelector('.odds');
  const open = (winners ?? []).filter((odd) => odd.status !== 'CLOSED').slice(0, MAX_ODDS);
  odds.hidden = open.length === 0;
  reconcile(
    odds.querySelector('ol'),
    open,
    (odd) => odd.id,
    (odd) =>
      create('li', { class: 'odd', 'data-odd-id': odd.id, 'data-testid': 'odd' }, [
        create('span', { class: 'name' }),
        create('span', { class: 'prob' }),
        create('span', { class: 'price', 'data-testid': 'odd-price' }),
      ]),
    (li, odd) => {
      markStatus(li, odd);
      setText(li.querySelector('.name'), outcomeName(odd));
      setText(li.querySelector('.prob'), odd.status === 'OPEN' ? `${odd.probability.toFixed(1)}%` : statusText(odd));
      setText(li.querySelector('.price'), odd.odds.toFixed(2));
    },
  );
  // Under a bet stop on silence every open price of the event is suspended with FEED_STALE.
  const prices = [...open, ...lines.flatMap((line) => line.picks)];
  card.querySelector('.feed-stale').hidden = !prices.some((price) => price.statusReason === 'FEED_STALE');
}

/** A price's status and reason on its element: greyed out (CSS) with the reason on hover, unless open. */
function markStatus(element, price) {
  element.dataset.status = price.status;
  if (price.statusReason) element.dataset.reason = price.statusReason;
  else delete element.dataset.reason;
  element.title = price.status === 'OPEN' ? '' : statusText(price);
}

/** `suspended · score change`, `closed · resulted`: the status and why, in words. */
function statusText(price) {
  const reason = price.statusReason ? ` · ${price.statusReason.toLowerCase().replaceAll('_', ' ')}` : '';
  return `${price.status.toLowerCase()}${reason}`;
}

// ---------------------------------------------------------------- the board's events

/** competition key -> { name, supportedMarkets }, from GET /sports. */
let competitions = new Map();

/** public event id -> { card, document, shown, heats: Map(heatId -> rows), winners, want, timer, lastRefresh } */
const board = new Map();

/** Whether the event's competition prices an event winner (else the odds route answers 404). */
const offersWinner = (entry) =>
  competitions.get(entry.id.split(':')[0])?.supportedMarkets.includes('eventWinner') ?? true;

function ensureEvent(id) {
  let entry = board.get(id);
  if (entry) return entry;
  entry = {
    id,
    card: makeCard(id),
    document: null,
    shown: [],
    heats: new Map(),
    winners: null,
    match: null,
    want: null,
    timer: null,
    leaving: null,
    lastRefresh: 0,
  };
  board.set(id, entry);
  $('#events').append(entry.card);
  $('#empty').hidden = true;
  return entry;
}

function dropEvent(id) {
  const entry = board.get(id);
  if (!entry) return;
  clearTimeout(entry.timer);
  clearTimeout(entry.leaving);
  entry.card.remove();
  board.delete(id);
  $('#empty').hidden = board.size > 0;
}

/** Asks for a refresh of parts of an event: `document`, `odds`, and `heatIds` (a Set) of heats to refetch. */
function schedule(id, want) {
  const entry = board.get(id);
  if (!entry) return;
  entry.want ??= { document: false, odds: false, heatIds: new Set() };
  const pending = entry.want;
  pending.document ||= Boolean(want.document);
  pending.odds ||= Boolean(want.odds);
  for (const heatId of want.heatIds ?? []) pending.heatIds.add(heatId);
  if (entry.timer) return;
  const delay = Math.max(COALESCE_MS, entry.lastRefresh + MIN_REFRESH_MS - Date.now());
  entry.timer = setTimeout(() => {
    entry.timer = null;
    const taken = entry.want;
    entry.want = null;
    entry.lastRefresh = Date.now();
    refresh(entry, taken).catch((error) => failed(entry, taken, error));
  }, delay);
}

function failed(entry, want, error) {
  if (error instanceof HttpError && error.status === 401) return askForKey('The key was refused. Enter another one.');
  if (error instanceof HttpError && error.status === 404) return dropEvent(entry.id); // gone, or not readable with this key
  // Try again later (a 429 waits out its Retry-After in getDocument).
  setTimeout(() => schedule(entry.id, { document: want.document, odds: want.odds, heatIds: want.heatIds }), 5_000);
}

async function refresh(entry, want) {
  const id = encodeURIComponent(entry.id);
  const jobs = [];
  if (want.document || !entry.document) {
    entry.document = await getDocument(`/events/${id}`);
    const before = new Set(entry.shown.map((heat) => heat.id));
    entry.shown = shownHeats(entry.document);
    // A heat newly in view is fetched as well.
    for (const heat of entry.shown) if (!before.has(heat.id) || !entry.heats.has(heat.id)) want.heatIds.add(heat.id);
  }
  for (const heat of entry.shown) {
    if (!want.heatIds.has(heat.id)) continue;
    jobs.push(
      getDocument(`/events/${id}/heats/${encodeURIComponent(heat.id)}`).then((rows) => entry.heats.set(heat.id, rows)),
    );
  }
  const sport = sportOf(entry.id);
  if (MATCH_SPORTS.has(sport)) {
    entry.winners = [];
    if (want.odds || entry.match === null)
      jobs.push(getDocument(`/events/${sport}/${id}/odds`).then((odds) => (entry.match = matchLines(odds))));
  } else if (!offersWinner(entry)) entry.winners = [];
  else if (want.odds || entry.winners === null)
    jobs.push(getDocument(`/events/${id}/eventWinner`).then((odds) => (entry.winners = odds.eventWinner ?? [])));
  await Promise.all(jobs);
  // A heat whose rows say it changed status (finished, say): the event document shows what is in play now.
  const stale = entry.shown.some((heat) =>
    (entry.heats.get(heat.id) ?? []).some((row) => row.heatStatus !== heat.heatStatus),
  );
  if (stale && !want.document) return refresh(entry, { document: true, odds: false, heatIds: new Set() });
  for (const heatId of entry.heats.keys())
    if (!entry.shown.some((heat) => heat.id === heatId)) entry.heats.delete(heatId);
  renderEvent(entry);
}

/** Every live event, from scratch (at start, and after a `reset`). */
async function loadBoard() {
  const sports = await getDocument('/sports');
  competitions = new Map(sports.map((sport) => [sport.key, sport]));
  const live = await getDocument('/events?eventStatus=LIVE');
  const ids = new Set(live.map((event) => event.id));
  for (const id of [...board.keys()]) if (!ids.has(id)) dropEvent(id);
  for (const event of live) {
    const entry = ensureEvent(event.id);
    schedule(entry.id, { document: true, odds: true, heatIds: entry.shown.map((heat) => heat.id) });
  }
  $('#empty').hidden = board.size > 0;
}

// ---------------------------------------------------------------- the push stream

function setStatus(state, text) {
  const status = $('#status');
  status.dataset.state = state;
  status.textContent = text;
}

/** New prices from an `odds` change, shown at once; true when they were all it said (nothing to fetch). */
function applyPrices(entry, data) {
  // A match's lines are refetched whole: a tick may move a line as well as its prices.
  if (entry.winners === null || entry.match !== null || data.truncated) return false;
  const marketId = entry.winners[0]?.marketId;
  // The market itself changed (suspended, reopened, new outcomes): its document tells.
  if (marketId !== undefined && data.marketIds.includes(marketId)) return false;
  const byId = new Map(entry.winners.map((odd) => [odd.id, odd]));
  // A status changed without the bet stop's reason (the operator's, say): the document has the reason.
  if (
    !data.statusReason &&
    data.odds.some((tick) => tick.status !== 'OPEN' && tick.status !== byId.get(tick.id)?.status)
  )
    return false;
  let changed = false;
  for (const tick of data.odds) {
    const odd = byId.get(tick.id);
    if (!odd) continue;
    // The published probability is the decimal price's inverse, in percent.
    const statusReason = tick.status === 'OPEN' ? undefined : (data.statusReason ?? odd.statusReason);
    Object.assign(odd, {
      odds: tick.decimalOdds,
      probability: 100 / tick.decimalOdds,
      status: tick.status,
      statusReason,
    });
    changed = true;
  }
  if (changed) renderEvent(entry);
  return true;
}

function onChange(kind, data) {
  const id = data?.eventId;
  const entry = board.get(id);
  switch (kind) {
    case 'heatScore': {
      if (!entry) break;
      // Scores of heats on show: their rows. Anything else (another heat, a round, a team's periods): the event too.
      const shown = new Set(entry.shown.map((heat) => heat.id));
      const others =
        data.roundIds.length > 0 ||
        data.heatIds.some((heatId) => !shown.has(heatId)) ||
        entry.document?.teams.length > 0;
      schedule(id, { document: others, heatIds: data.heatIds.filter((heatId) => shown.has(heatId)) });
      break;
    }
    case 'odds':
      if (entry && !applyPrices(entry, data)) schedule(id, { odds: true });
      break;
    case 'settlement':
      schedule(id, { document: data.eventFinal, odds: true, heatIds: data.heatIds });
      break;
    case 'event':
      if (board.has(id)) schedule(id, { document: true });
      else if (data.eventStatus === 'LIVE') schedule(ensureEvent(id).id, { document: true, odds: true });
      break;
    case 'reset':
      loadBoard().catch(() => {});
      break;
  }
}

/** Settles at the stream's first `ready` (or after a few seconds without one: the board loads anyway). */
let streamReady;
const firstReady = new Promise((resolve) => {
  streamReady = resolve;
  setTimeout(resolve, 5_000);
});

async function follow() {
  let lastEventId = null;
  let retryMs = 2_000;
  let failures = 0;
  for (;;) {
    setStatus(
      lastEventId === null && failures === 0 ? 'connecting' : 'reconnecting',
      lastEventId === null && failures === 0 ? 'Connecting…' : 'Reconnecting…',
    );
    const abort = new AbortController();
    let idle = null;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(), IDLE_MS);
    };
    try {
      // The stream is opened with a short-lived token (POST /stream/tokens), not the key: a new one
      // for each connection, so that an expired token only costs a reconnect.
      const issued = await fetch(`${API}/stream/tokens`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
        cache: 'no-store',
        signal: abort.signal,
      });
      if (issued.status === 401) {
        askForKey('The key was refused. Enter another one.');
        return;
      }
      if (!issued.ok) throw new Error(`stream token: HTTP ${issued.status}`);
      const { token } = await issued.json();
      const headers = { accept: 'text/event-stream' };
      // Resume where we were: the server replays what we missed (or sends a reset).
      if (lastEventId !== null) headers['last-event-id'] = lastEventId;
      const response = await fetch(`${API}/stream?kind=${STREAM_KINDS}&token=${encodeURIComponent(token)}`, {
        headers,
        cache: 'no-store',
        signal: abort.signal,
      });
      if (response.status === 401 || response.status === 403) {
        askForKey(
          response.status === 401 ? 'The key was refused. Enter another one.' : 'This key may not read the stream.',
        );
        return;
      }
      if (!response.ok || !response.body) throw new Error(`stream: HTTP ${response.status}`);
      watch();
      const parser = createParser({
        onRetry: (retry) => {
          retryMs = retry;
        },
        onEvent: (message) => {
          if (message.id !== undefined) lastEventId = message.id;
          if (message.event === 'ready') {
            failures = 0;
            setStatus('live', 'Live');
            $('#events').dataset.streamReady = 'true';
            streamReady();
            return;
          }
          if (message.event === 'close') return abort.abort(); // the server is going away: reconnect
          if (message.data === '') return;
          let data;
          try {
            data = JSON.parse(message.data);
          } catch {
            return;
          }
          onChange(message.event ?? 'message', data);
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        watch();
        parser.feed(value);
      }
    } catch {
      // dropped, aborted for silence, or refused: reconnect below
    } finally {
      clearTimeout(idle);
    }
    failures += 1;
    setStatus('reconnecting', 'Reconnecting…');
    const backoff = Math.min(MAX_RECONNECT_MS, retryMs * 2 ** Math.min(failures - 1, 5));
    await sleep(backoff / 2 + Math.random() * (backoff / 2));
  }
}

// ---------------------------------------------------------------- start

async function start() {
  const chosen = chooseKey();
  apiKey = chosen.key;
  const forget = $('#forget-key');
  forget.hidden = !chosen.own;
  forget.addEventListener('click', () => {
    storage.set(null);
    location.reload();
  });
  if (!apiKey) return askForKey('This server has no demo key: enter an API key of this server.');
  try {
    // Subscribe first, so that nothing committed while the board loads is missed.
    void follow();
    await firstReady;
    await loadBoard();
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      if (chosen.own) storage.set(null);
      return askForKey('The key was refused. Enter another one.');
    }
    setStatus('error', `Error: ${error.message}`);
  }
}

start();
