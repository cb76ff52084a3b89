/**
 * The live board and the docs page in a real browser: Debian's chromium driven by
 * playwright-core (no browser download), against a real server over the demo data. A heat score and a
 * price posted through the admin feed must reach the open board through the push stream, without a
 * reload, on a desktop and on a phone viewport; the docs page must list every operation, come with the
 * demo key authorized, and run "Try it out → Execute" with its pre-filled example.
 *
 * Waits are bounded polls (waitForFunction, waitFor), never timing assertions.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ensureApiKey } from '../../src/access/api-keys.ts';
import { DEFAULT_DEMO_API_KEY, loadConfig } from '../../src/config.ts';
import { loadDemoData } from '../../src/demo/load-demo.ts';
import { OPENAPI_TAGS } from '../../src/http/tags.ts';
import { VERSION } from '../../src/version.ts';
import { buildTestApp } from '../helpers/app.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN_KEY = 'admin-key-for-browser-tests-0123456789';
const KEY = DEFAULT_DEMO_API_KEY;
const PUBLIC = '/api/v1/public';
/** Enough to show athlete heats, lap racing and a team match; the whole demo takes far longer to load. */
const COMPETITIONS = ['wsl', 'spr', 'gsoc'];
/**
 * How long a page may take to show what is waited for: a bound, not a timing. The docs page renders
 * some 50 operations, which took 15-25 s in Chromium on a 2-core machine running two other test files.
 */
const WAIT_MS = 45_000;

interface ScoreRow {
  id: string;
  heatId: string;
  athleteRoundSeed: number;
  athleteHeatScore: number | null;
  athlete: { id: string };
}
interface Odd {
  id: string;
  marketId: string;
  odds: number;
  status: string;
  athlete: { id: string } | null;
}

describe('live board and docs page in chromium', () => {
  let testStore: TestStore;
  let app: FastifyInstance;
  let origin: string;
  let browser: Browser;

  before(async () => {
    // Failing, not skipping: a green run must mean the pages were tried in a browser.
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: the browser tests need Debian's chromium (apt-get install --no-install-recommends chromium; .ci/run installs it), or set CHROMIUM_PATH.`,
      );
    }
    testStore = await openTestStore('sqlite');
    await loadDemoData(testStore.store, { competitions: COMPETITIONS });
    await ensureApiKey(testStore.store, 'demo', KEY);
    // The demo without a simulator: nothing feeds its live events, which would be suspended as stale
    // (FEED_STALE) 30 s in, as `npm start` without --simulate documents; the test pushes its own prices.
    const config = loadConfig({
      DEMO_DATA: 'on',
      ADMIN_API_KEY: ADMIN_KEY,
      RATE_LIMIT_PER_MINUTE: '0',
      FEED_STALE_SECONDS: '0',
    });
    app = await buildTestApp({ config, store: testStore.store, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await testStore?.cleanup();
  });

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${origin}${PUBLIC}${path}`, { headers: { 'x-api-key': KEY } });
    assert.equal(response.status, 200, `${path}: ${response.status}`);
    return (await response.json()) as T;
  };

  const feed = async (document: Record<string, unknown>): Promise<void> => {
    const response = await fetch(`${origin}/api/v1/admin/feed`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ updatedAt: new Date().toISOString(), ...document }),
    });
    assert.equal(response.status, 200, await response.text());
  };

  /** The live WSL event, its live heat and that heat's first row: what the board shows first. */
  const liveHeat = async () => {
    const [event] = await api<Array<{ id: string }>>('/events?competition=wsl&eventStatus=LIVE');
    assert.ok(event, 'the demo has a live WSL event');
    const eventDocument = await api<{ rounds: Array<{ heats: Array<{ id: string; heatStatus: string }> }> }>(
      `/events/${event.id}`,
    );
    const heat = eventDocument.rounds.flatMap((round) => round.heats).find((h) => h.heatStatus === 'LIVE');
    assert.ok(heat, 'the live WSL event has a live heat');
    const rows = await api<ScoreRow[]>(`/events/${event.id}/heats/${heat.id}`);
    const row = rows[0];
    assert.ok(row);
    return { eventId: event.id, heatId: heat.id, row };
  };

  /** A heat score as a feed sends it: the entry with its new score. */
  const postScore = (row: ScoreRow, heatScore: number) =>
    feed({
      heatEntries: [
        {
          id: row.id,
          heatId: row.heatId,
          athleteId: row.athlete.id,
          seed: row.athleteRoundSeed,
          heatScore,
          updatedAt: new Date().toISOString(),
        },
      ],
    });

  /** A page whose Content-Security-Policy violations (which Chromium reports on the console) and script errors are kept. */
  const openPage = async (context: BrowserContext): Promise<{ page: Page; problems: string[] }> => {
    const page = await context.newPage();
    // Loading a page is bounded like every other wait here.
    page.setDefaultNavigationTimeout(WAIT_MS);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return { page, problems };
  };

  const textIs = (page: Page, selector: string, text: string) =>
    page
      .waitForFunction(([s, t]) => document.querySelector(s as string)?.textContent === t, [selector, text], {
        timeout: WAIT_MS,
      })
      .catch(async (error: Error) => {
        const shown = await page.evaluate(
          (s) => document.querySelector(s)?.textContent ?? '(no such element)',
          selector,
        );
        throw new Error(`${selector} did not become "${text}" (shows "${shown}"): ${error.message}`);
      });

  const boardIsLive = (page: Page) =>
    page.locator('[data-testid="connection-status"][data-state="live"]').waitFor({ timeout: WAIT_MS });

  /** The board open and live on `context`, showing the heat entry's current score; `score` selects that cell. */
  const openLiveBoard = async (
    context: BrowserContext,
    { eventId, heatId, row }: Awaited<ReturnType<typeof liveHeat>>,
  ) => {
    const { page, problems } = await openPage(context);
    await page.goto(`${origin}/board`);
    await boardIsLive(page);
    const score = `[data-event-id="${eventId}"] [data-heat-id="${heatId}"] [data-entry-id="${row.id}"] [data-testid="heat-score"]`;
    await textIs(page, score, row.athleteHeatScore === null ? '–' : `${Number(row.athleteHeatScore.toFixed(2))} pts`);
    return { page, problems, score };
  };

  test('the board shows live events and a pushed heat score and price without a reload (desktop)', async () => {
    const heat = await liveHeat();
    const { eventId, row } = heat;
    const live = await api<Array<{ id: string; competition: string }>>('/events?eventStatus=LIVE');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, problems, score } = await openLiveBoard(context, heat);
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="event-card"]').length === n,
        live.length,
        { timeout: WAIT_MS },
      );
      // A team match shows its teams' scores (its rows may come after its card).
      const teamRows = page.locator('[data-testid="event-card"][data-competition="gsoc"] [data-testid="team-row"]');
      await teamRows.nth(1).waitFor({ timeout: WAIT_MS });
      assert.equal(await teamRows.count(), 2);
      // ... and its match odds: the moneyline's prices as the curling odds route publishes them, spread and total.
      const match = live.find((event) => event.competition === 'gsoc');
      assert.ok(match, 'a curling match is live');
      const curling = await api<{ event: { moneyLine: { selection: Odd[] } } }>(`/events/gsoc/${match.id}/odds`);
      const card = `[data-testid="event-card"][data-competition="gsoc"]`;
      await page.locator(`${card} [data-testid="match-line"]`).nth(2).waitFor({ timeout: WAIT_MS });
      for (const odd of curling.event.moneyLine.selection)
        await textIs(page, `${card} [data-odd-id="${odd.id}"] [data-testid="odd-price"]`, odd.odds.toFixed(2));
      assert.deepEqual(await page.locator(`${card} [data-testid="match-line"] .label`).allTextContents(), [
        'Moneyline',
        'Spread',
        'Total',
      ]);

      // Left on the page: it must still be this document after the change (no reload).
      await page.evaluate(() => ((window as unknown as { boardMarker: string }).boardMarker = 'same page'));
      const newScore = (row.athleteHeatScore ?? 0) + 1.37;
      await postScore(row, newScore);
      await textIs(page, score, `${Number(newScore.toFixed(2))} pts`);
      assert.equal(
        await page.evaluate(() => (window as unknown as { boardMarker?: string }).boardMarker),
        'same page',
        'the page was reloaded',
      );
      assert.ok(
        await page.locator(score).evaluate((element) => element.classList.contains('flash')),
        'the changed score is marked',
      );

      // A price tick reaches the event-winner odds the same way.
      const odds = (await api<{ eventWinner: Odd[] }>(`/events/${eventId}/eventWinner`)).eventWinner;
      const favourite = odds.find((odd) => odd.status === 'OPEN');
      assert.ok(favourite?.athlete);
      const price = `[data-event-id="${eventId}"] [data-odd-id="${favourite.id}"] [data-testid="odd-price"]`;
      await textIs(page, price, favourite.odds.toFixed(2));
      await feed({
        odds: [
          {
            id: favourite.id,
            marketId: favourite.marketId,
            athleteId: favourite.athlete.id,
            odds: 1.5,
            updatedAt: new Date().toISOString(),
          },
        ],
      });
      await textIs(page, price, '1.50');

      // A suspended price is greyed out with its reason; under a bet stop on silence the card says so.
      const favouriteRow = `[data-event-id="${eventId}"] [data-odd-id="${favourite.id}"]`;
      const stale = `[data-event-id="${eventId}"] [data-testid="feed-stale"]`;
      const suspend = (status: string, statusReason?: string) =>
        feed({
          odds: [
            {
              id: favourite.id,
              marketId: favourite.marketId,
              athleteId: favourite.athlete?.id,
              odds: 1.5,
              status,
              ...(statusReason ? { statusReason } : {}),
              updatedAt: new Date().toISOString(),
            },
          ],
        });
      assert.equal(await page.locator(stale).isVisible(), false);
      await suspend('SUSPENDED', 'FEED_STALE');
      await textIs(page, `${favouriteRow} .prob`, 'suspended · feed stale');
      assert.equal(await page.locator(favouriteRow).getAttribute('data-reason'), 'FEED_STALE');
      assert.equal(await page.locator(favouriteRow).evaluate((element) => getComputedStyle(element).opacity), '0.55');
      await page.locator(stale).waitFor({ state: 'visible', timeout: WAIT_MS });
      await suspend('OPEN');
      await page.locator(stale).waitFor({ state: 'hidden', timeout: WAIT_MS });
      assert.equal(await page.locator(favouriteRow).evaluate((element) => getComputedStyle(element).opacity), '1');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('on a phone viewport: one column, nothing wider than the screen, and a pushed score arrives', async () => {
    const heat = await liveHeat();
    const { row } = heat;
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    try {
      const { page, problems, score } = await openLiveBoard(context, heat);

      const layout = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
        lefts: [...document.querySelectorAll('[data-testid="event-card"]')].map((card) =>
          Math.round(card.getBoundingClientRect().left),
        ),
      }));
      assert.ok(
        layout.scrollWidth <= layout.width,
        `the page scrolls sideways: ${layout.scrollWidth} > ${layout.width}`,
      );
      assert.ok(layout.lefts.length > 1);
      assert.equal(new Set(layout.lefts).size, 1, `cards side by side on a phone: ${layout.lefts.join(', ')}`);

      const newScore = (row.athleteHeatScore ?? 0) + 0.5;
      await postScore(row, newScore);
      await textIs(page, score, `${Number(newScore.toFixed(2))} pts`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('the board asks for a key when the server has no demo key and none is given; ?key= is used and kept', async () => {
    const context = await browser.newContext();
    try {
      const { page } = await openPage(context);
      // A page without the demo key's meta tag, as a server with DEMO_API_KEY=off serves it.
      await page.route(`${origin}/board`, async (route) => {
        const response = await route.fetch();
        await route.fulfill({
          response,
          body: (await response.text()).replace(/<meta name="altsports-demo-key"[^>]*>/, ''),
        });
      });
      await page.goto(`${origin}/board`);
      await page.locator('[data-testid="key-form"]').waitFor({ state: 'visible', timeout: WAIT_MS });
      assert.equal(await page.locator('[data-testid="connection-status"]').getAttribute('data-state'), 'key-needed');

      await page.goto(`${origin}/board?key=${KEY}`);
      await boardIsLive(page);
      assert.equal(new URL(page.url()).search, '', 'the key is taken out of the address bar');
      await page.reload();
      await boardIsLive(page); // the kept key, with no demo key on the page
      assert.equal(await page.evaluate(() => localStorage.getItem('altsports.apiKey')), KEY);
    } finally {
      await context.close();
    }
  });

  test('the docs page lists every operation, has the demo key authorized, and Try it out runs its example', async () => {
    const openapi = (await (await fetch(`${origin}/docs/json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; example?: unknown }> }>>;
    };
    const operations = Object.values(openapi.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const publicOperations = Object.entries(openapi.paths)
      .filter(([path]) => path.startsWith(PUBLIC))
      .reduce((n, [, item]) => n + Object.keys(item).length, 0);
    assert.equal(publicOperations, 27);
    const eventId = openapi.paths[`${PUBLIC}/events/{eventId}`]?.get?.parameters?.find(
      (p) => p.name === 'eventId',
    )?.example;
    assert.equal(typeof eventId, 'string');

    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    try {
      const { page, problems } = await openPage(context);
      await page.goto(`${origin}/docs/`);
      await page.waitForFunction((n) => document.querySelectorAll('.opblock').length === n, operations, {
        timeout: WAIT_MS,
      });
      assert.equal(await page.locator(`.opblock-summary-path[data-path^="${PUBLIC}/"]`).count(), publicOperations);
      await page.locator('html[data-docs-ready="true"]').waitFor({ timeout: WAIT_MS });
      const authorized = await page.evaluate(() =>
        (
          window as unknown as {
            ui: { authSelectors: { authorized(): { toJS(): Record<string, { value?: string }> } } };
          }
        ).ui.authSelectors
          .authorized()
          .toJS(),
      );
      assert.equal(authorized.ApiKeyAuth?.value, KEY, 'the demo key is authorized');
      assert.deepEqual(
        await page.locator('.opblock-tag').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag'))),
        OPENAPI_TAGS.map((tag) => tag.name),
        "the groups in the order of the specification's table of routes",
      );
      assert.equal(await page.title(), 'altsports API docs');
      assert.equal(
        (await page.locator('.info .title small:not(.version-stamp) .version').textContent())?.trim(),
        VERSION,
        "the version badge is package.json's",
      );
      assert.equal(await page.locator('.topbar .download-url-wrapper').isVisible(), false, 'no Explore bar');
      assert.match(
        (await page.locator('.topbar-wrapper img').getAttribute('src')) ?? '',
        /^data:image\/svg\+xml;base64,/,
      );
      assert.match(
        (await page.locator('.auth-wrapper .authorize').getAttribute('class')) ?? '',
        /\blocked\b/,
        'the Authorize button shows a key in use',
      );
      assert.match(
        (await page.locator('.info .markdown, .info .renderedMarkdown').first().textContent()) ?? '',
        /Poll with ETags[\s\S]*push stream[\s\S]*same game parlay/,
      );

      const operation = page
        .locator('.opblock-get')
        .filter({ has: page.locator(`.opblock-summary-path[data-path="${PUBLIC}/events/{eventId}"]`) });
      await operation.locator('.opblock-summary').first().click();
      const input = operation.locator('tr[data-param-name="eventId"] input');
      await input.waitFor({ timeout: WAIT_MS });
      assert.equal(await input.inputValue(), eventId, 'the path parameter is pre-filled with a live event');
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor({ timeout: WAIT_MS });
      assert.equal((await status.textContent())?.trim(), '200');
      assert.match(
        (await operation
          .locator('.live-responses-table .microlight, .live-responses-table pre')
          .first()
          .textContent()) ?? '',
        new RegExp(String(eventId)),
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
