import { PUBLIC_PREFIX } from '../../read/public-paths.ts';
import type { DocsExamples } from './docs-examples.ts';

const fence = (language: string, lines: string[]) => [`\`\`\`${language}`, ...lines, '```'].join('\n');

/**
 * The getting-started section at the top of the docs page (the docs copy of the document's
 * `info.description`, which Swagger UI renders as markdown): copy-pasteable curl and TypeScript
 * snippets for polling with ETags, the push stream and a same game parlay, with this server's origin,
 * the demo key and ids of the data it holds filled in.
 */
export function gettingStarted(options: {
  origin: string;
  demoApiKey: string | null;
  examples: DocsExamples;
  summary: string;
  boardPath: string;
}): string {
  const { origin, demoApiKey, examples } = options;
  const key = demoApiKey ?? '<your key>';
  const event = examples.event?.id ?? '<event id>';
  const sgpEvent = examples.odds?.eventId ?? '<event id>';
  const [leg1, leg2] = examples.odds?.oddIds ?? ['<eventWinner odd id>', '<secondPlace odd id>'];
  const competition = examples.event?.competition ?? 'wsl';

  return [
    options.summary,
    '',
    `**Getting started** · [live board](${options.boardPath}) (scores and odds as they change) · [OpenAPI document](${PUBLIC_PREFIX}/openapi.json)`,
    '',
    demoApiKey
      ? `The demo key \`${demoApiKey}\` is filled in already (see **Authorize**), and every operation's **Try it out** is pre-filled with ids of the data on this server: press **Execute**.`
      : "Press **Authorize** and enter your API key; every operation's **Try it out** is pre-filled with ids of the data on this server.",
    '',
    fence('sh', [
      `KEY=${key}`,
      `API=${origin}${PUBLIC_PREFIX}`,
      `EVENT=${event}${examples.event ? `   # ${examples.event.name}` : ''}`,
    ]),
    '',
    '#### 1. Poll with ETags',
    'Every document answers with an `ETag`. Send it back as `If-None-Match`: an unchanged document costs a `304` with no body.',
    '',
    fence('sh', [
      `ETAG=$(curl -sI -H "X-API-KEY: $KEY" "$API/events/$EVENT" | awk -F': ' 'tolower($1)=="etag"{print $2}' | tr -d '\\r')`,
      'curl -si -H "X-API-KEY: $KEY" -H "If-None-Match: $ETAG" "$API/events/$EVENT" | head -1   # HTTP/1.1 304 Not Modified',
    ]),
    '',
    'With the TypeScript client (`clients/typescript` in the repository), the loop body runs only when the event changed:',
    '',
    fence('ts', [
      "import { createClient } from '@altsports/client';",
      '',
      `const api = createClient({ baseUrl: '${origin}', apiKey: '${key}' });`,
      `for await (const { data, etag } of api.poll('/events/{eventId}', { path: { eventId: '${event}' } }, { intervalMs: 5_000 })) {`,
      '  console.log(etag, data.eventStatus, data.updatedAt);',
      '}',
    ]),
    '',
    '#### 2. Subscribe to the push stream',
    'Server-sent events of every change as it commits: `event`, `heatScore`, `odds`, `settlement`, `future`, `reset`. ' +
      'After a disconnect, send the last id you received as `Last-Event-ID` and the changes you missed come first. ' +
      '(Try it out waits for the end of the answer, which a stream never reaches: use curl, or watch the live board.)',
    '',
    fence('sh', [
      `curl -N -H "X-API-KEY: $KEY" "$API/stream?competition=${competition}&kind=heatScore,odds"`,
      'curl -N -H "X-API-KEY: $KEY" -H "Last-Event-ID: 42" "$API/stream"   # resume after change 42',
    ]),
    '',
    fence('ts', [
      `for await (const change of api.subscribe({ competition: ['${competition}'], kind: ['heatScore', 'odds'] })) {`,
      "  if (change.type === 'heatScore') console.log(change.data.eventId, change.data.heatIds);  // refetch those heats",
      "  if (change.type === 'odds') console.log(change.data.odds);                               // [{ id, marketId, decimalOdds, status }]",
      '}',
    ]),
    '',
    '#### 3. Price a same game parlay',
    'Two or more odd ids of one event (from its odds documents): the joint probability and odds, the independent product and the correlation factor.',
    '',
    fence('sh', [
      `curl -X POST -H "X-API-KEY: $KEY" -H 'content-type: application/json' "$API/events/${sgpEvent}/sgp" \\`,
      `     --data '{"oddIds": ["${leg1}", "${leg2}"]}'`,
    ]),
    '',
    fence('ts', [
      `const parlay = await api.sgp('${sgpEvent}', ['${leg1}', '${leg2}']);`,
      'console.log(parlay.odds, parlay.probability, parlay.correlationFactor);',
    ]),
  ].join('\n');
}
