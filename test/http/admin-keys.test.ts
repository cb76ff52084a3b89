import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, buildTestApp } from '../helpers/app.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

/**
 * Selling the API: usage written to the store (it survives restarts and adds up across nodes), plans
 * with a monthly quota, and keys, plans and usage managed over the admin API alone.
 */

const SPORTS = '/api/v1/public/sports';
const ADMIN = '/api/v1/admin';

function build(store: Store, logger: false | { level: string; stream: Writable } = false): Promise<FastifyInstance> {
  const config = loadConfig({
    ADMIN_API_KEY: ADMIN_KEY,
    DEMO_DATA: 'off',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_DAY: '0',
    FEED_STALE_SECONDS: '0',
  });
  return buildTestApp({ config, store, logger });
}

const admin = (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) =>
  app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
    ...(body ? { body } : {}),
  });

const get = (app: FastifyInstance, key: string, url = SPORTS) => app.inject({ url, headers: { 'x-api-key': key } });

describeEachStore('keys, plans and usage', (open) => {
  test('an operator creates a plan and a key, sells it by the month, exports usage as CSV and revokes it, over HTTP alone', async (t) => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const app = await build(store);
    t.after(() => app.close());

    const plan = await admin(app, 'POST', '/plans', { name: 'trial', monthlyQuota: 3, ratePerMinute: 0 });
    assert.equal(plan.statusCode, 201, plan.body);
    assert.equal(plan.json().monthlyQuota, 3);
    const issued = await admin(app, 'POST', '/keys', { name: 'acme', plan: 'trial' });
    assert.equal(issued.statusCode, 201, issued.body);
    const { key, info } = issued.json() as { key: string; info: { id: string; planId: string } };
    assert.equal(info.planId, plan.json().id);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(app, key));
    assert.deepEqual(
      answers.map((a) => [a.statusCode, a.headers['x-quota-limit'], a.headers['x-quota-remaining']]),
      [
        [200, '3', '2'],
        [200, '3', '1'],
        [200, '3', '0'],
        [429, '3', '0'],
      ],
    );
    const refused = answers[3];
    assert.ok(refused);
    assert.match(refused.json().message, /Monthly quota exceeded/);
    assert.equal(refused.json().statusCode, 429);
    const reset = Number(refused.headers['x-quota-reset']);
    assert.equal(refused.headers['retry-after'], String(reset));
    const now = new Date();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    assert.ok(Math.abs(now.getTime() + reset * 1000 - monthEnd) < 5_000, 'resets when the next month starts');

    await app.usageLedger.flush();
    const exported = await app.inject({
      url: `${ADMIN}/usage?keyId=${info.id}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, accept: 'text/csv' },
    });
    assert.equal(exported.statusCode, 200, exported.body);
    assert.match(String(exported.headers['content-type']), /^text\/csv/);
    const today = now.toISOString().slice(0, 10);
    assert.equal(exported.body, `keyId,day,route,requests\r\n${info.id},${today},/sports,3\r\n`);
    const json = await admin(app, 'GET', `/usage?keyId=${info.id}`);
    assert.deepEqual(json.json(), [{ keyId: info.id, day: today, route: '/sports', requests: 3 }]);
    const shown = await admin(app, 'GET', `/keys/${info.id}`);
    assert.deepEqual(shown.json().usage, { today: 3, month: 3 });

    // Off the plan, the key is back to the server's limits; a second plan with a larger quota takes it again.
    const changed = await admin(app, 'PATCH', `/keys/${info.id}`, { plan: null });
    assert.equal(changed.json().planId, null);
    const raised = await admin(app, 'PATCH', '/plans/trial', { monthlyQuota: 10 });
    assert.equal(raised.json().monthlyQuota, 10);

    const rotated = await admin(app, 'POST', `/keys/${info.id}/rotate`);
    assert.equal(rotated.statusCode, 200, rotated.body);
    const fresh = rotated.json().key as string;
    assert.notEqual(fresh, key);
    assert.equal((await get(app, fresh)).statusCode, 200);
    const revoked = await admin(app, 'DELETE', `/keys/${info.id}`);
    assert.ok(revoked.json().revokedAt);
    // A node that had not met the key: both secrets refused.
    const other = await build(store);
    t.after(() => other.close());
    assert.equal((await get(other, key)).statusCode, 401);
    assert.equal((await get(other, fresh)).statusCode, 401);
  });

  test('usage totals equal the access log over two nodes and a restart, and outlive it', async (t) => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    let logged = 0;
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) {
          const entry = JSON.parse(line) as { msg?: string; req?: { url?: string }; res?: { statusCode?: number } };
          if (entry.res?.statusCode === 200 && entry.req?.url?.startsWith('/api/v1/public/events')) logged += 1;
        }
        done();
      },
    });
    const nodeA = await build(store, { level: 'info', stream });
    let nodeB = await build(store, { level: 'info', stream });
    t.after(async () => {
      await nodeA.close();
      await nodeB.close();
    });
    const issued = await admin(nodeA, 'POST', '/keys', { name: 'poller', ratePerMinute: 0, ratePerDay: 0 });
    const { key, info } = issued.json() as { key: string; info: { id: string } };
    const round = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const node = i % 2 === 0 ? nodeA : nodeB;
        const answer = await get(node, key, i % 3 === 0 ? '/api/v1/public/events' : '/api/v1/public/events?limit=1');
        assert.equal(answer.statusCode, 200);
      }
    };
    await round(1_200);
    // B stops (its counts written as it closes) and starts again.
    await nodeB.close();
    nodeB = await build(store, { level: 'info', stream });
    await round(800);
    await nodeA.usageLedger.flush();
    await nodeB.usageLedger.flush();

    const rows = (await admin(nodeA, 'GET', `/usage?keyId=${info.id}`)).json() as Array<{ requests: number }>;
    const total = rows.reduce((sum, row) => sum + row.requests, 0);
    assert.equal(logged, 2_000);
    assert.equal(total, logged);
    const usage = await get(nodeB, key, '/api/v1/public/usage');
    assert.equal(usage.json().day.used, 2_000);
    assert.equal(usage.json().month.used, 2_000);
    assert.equal(usage.json().today.byRoute['/events'], 2_000);
  });
});
