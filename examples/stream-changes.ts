/**
 * Subscribes to the push stream and prints each change on one line.
 *
 *   node --import tsx examples/stream-changes.ts [--competition wsl,spr] [--event ID] [--kind heatScore,odds]
 *                                                [--state FILE] [--count N] [--timeout S]
 *
 * The client reconnects by itself after a disconnect, sending the last change id as Last-Event-ID,
 * and the server replays what was missed. To survive a restart of this process too, the id is saved
 * to --state after every change and read back at start: delete the file to start from "now".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AltsportsApiError, createClient, type StreamEvent, type SubscribeOptions } from '@altsports/client';

const { values: flags } = parseArgs({
  options: {
    competition: { type: 'string' }, // comma list of competition keys
    event: { type: 'string' }, // one event id
    kind: { type: 'string' }, // comma list: event, heatScore, odds, settlement, future
    state: { type: 'string', default: join(tmpdir(), 'altsports-stream-last-id') },
    count: { type: 'string' }, // stop after this many changes
    timeout: { type: 'string' }, // stop after this many seconds
  },
});
const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const api = createClient({
  baseUrl: process.env.ALTSPORTS_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.ALTSPORTS_KEY ?? 'altsports-demo-key',
});

// Where the last change id is kept between runs.
const saved = existsSync(flags.state) ? Number(readFileSync(flags.state, 'utf8').trim()) : NaN;
const lastEventId = Number.isInteger(saved) ? saved : undefined;
console.log(
  lastEventId === undefined ? 'Starting from now' : `Resuming after change ${lastEventId} (saved in ${flags.state})`,
);

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
// A plain timer, not AbortSignal.timeout inside AbortSignal.any: Node may collect such a timeout signal
// before it fires (nodejs/node#57736), and the subscription would then run on past --timeout.
if (flags.timeout) setTimeout(() => stop.abort(), Number(flags.timeout) * 1000).unref();
const signal = stop.signal;
const maxChanges = flags.count === undefined ? Infinity : Number(flags.count);

const subscription = api.subscribe({
  // The server checks the keys and kinds: a bad one ends the subscription with a 400 naming it.
  competition: list(flags.competition) as SubscribeOptions['competition'],
  eventId: list(flags.event),
  kind: list(flags.kind) as SubscribeOptions['kind'],
  lastEventId,
  signal,
  onReconnect: ({ reason, delayMs, lastEventId: id }) =>
    console.log(`  (disconnected: ${reason}; reconnecting in ${delayMs} ms, Last-Event-ID ${id})`),
});

/** One line per change: its id, kind, and what to refetch or apply. */
function describe(change: Exclude<StreamEvent, { type: 'ready' }>): string {
  switch (change.type) {
    case 'event':
      return `${change.data.eventId} is ${change.data.eventStatus}`;
    case 'heatScore':
      return `${change.data.eventId} scores in heat(s) ${change.data.heatIds.join(', ') || '-'}${change.data.roundIds.length ? `, round(s) ${change.data.roundIds.join(', ')}` : ''}`;
    case 'odds': {
      const first = change.data.odds[0];
      return `${change.data.eventId} ${change.data.odds.length} new price(s)${first ? `, e.g. ${first.id} ${first.decimalOdds} ${first.status}` : ''}`;
    }
    case 'settlement':
      return `${change.data.eventId} ${change.data.oddIds.length} odd(s) settled${change.data.eventFinal ? ', event final' : ''}`;
    case 'future':
      return `${change.data.competition} futures ${change.data.futureIds.join(', ')}`;
    case 'reset':
      return `${change.data.reason}: ${change.data.message} (refetch what you show)`;
  }
}

/** Saved after a change is handled: a crash before that sees the change again, never loses it. */
const savePosition = () => {
  if (subscription.lastEventId !== null) writeFileSync(flags.state, String(subscription.lastEventId));
};

let changes = 0;
try {
  for await (const change of subscription) {
    if (change.type === 'ready') {
      console.log(`Connected; the server is at change ${change.data.lastEventId}`);
      savePosition();
      continue;
    }
    console.log(`#${change.id} ${change.type.padEnd(10)} ${describe(change)}`);
    savePosition();
    changes += 1;
    if (changes >= maxChanges) break;
  }
} catch (error) {
  // A bad key or filter is not retried: the server's 4xx ends the subscription.
  if (!(error instanceof AltsportsApiError)) throw error;
  console.error(`${error.status}: ${error.serverMessage}`);
  process.exit(1);
}

console.log(`Done: ${changes} change(s); last id ${subscription.lastEventId ?? '-'} saved in ${flags.state}`);
