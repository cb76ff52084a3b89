import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Negotiator from 'negotiator';
import { Type } from 'typebox';
import {
  createApiKey,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  setApiKeyLimits,
} from '../../access/api-keys.ts';
import { createPlan, findPlan, listPlans, setPlan } from '../../access/plans.ts';
import { utcDay, utcMonth } from '../../access/rate-limit.ts';
import { storedTotals, usageBetween, usageCsv } from '../../access/usage-ledger.ts';
import {
  ApiKeyInfo,
  ApiKeyWithUsage,
  IssuedKey,
  KeyChangeBody,
  KeyCreateBody,
  PlanChangeBody,
  PlanCreateBody,
  PlanInfo,
  UsageQuery,
  UsageRow,
} from '../../shapes/admin-keys.ts';
import { Ref } from '../../shapes/common.ts';
import type { Store } from '../../store/database.ts';
import { errorResponses } from '../schemas/common.ts';
import type { TypeBoxApp } from './typebox-app.ts';

/**
 * Keys, plans and usage over HTTP (the admin API, ADMIN_API_KEY): what `altsports keys` and
 * `altsports plans` do, through the same functions, for an operator's portal or billing system.
 */

const ADMIN = { tags: ['admin'], security: [{ AdminKeyAuth: [] }] };
const KeyParams = Type.Object({
  keyId: Type.String({ maxLength: 200, description: "a key's id (or the start of it)" }),
});
const PlanParams = Type.Object({ planId: Type.String({ maxLength: 200, description: "a plan's id or name" }) });
const errors = (more: Record<number, string> = {}) =>
  errorResponses({ 400: 'invalid request', 401: 'missing or invalid admin key', ...more });

const config = { access: 'admin' as const };

/** The keys with their requests today and this month. */
async function withUsage(store: Store, keys: ApiKeyInfo[]) {
  const totals = await storedTotals(
    store,
    keys.map((k) => k.id),
  );
  return keys.map((k, i) => ({ ...k, usage: totals[i] ?? { today: 0, month: 0 } }));
}

/** One function per route, registered in the order the OpenAPI document lists them. */
export const adminKeysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  issueKey(app);
  listKeys(app);
  showKey(app);
  changeKey(app);
  revokeKey(app);
  rotateKey(app);
  addPlan(app);
  listAllPlans(app);
  showPlan(app);
  changePlan(app);
  exportUsage(app);
};

function issueKey(app: TypeBoxApp): void {
  app.post(
    '/keys',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Issue an API key',
        description: 'The key is in this answer only: the store keeps a hash of it.',
        body: KeyCreateBody,
        response: { 201: Ref(IssuedKey), ...errors({ 404: 'no such plan' }) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createApiKey(app.store, request.body);
    },
  );
}

function listKeys(app: TypeBoxApp): void {
  app.get(
    '/keys',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'List API keys, with their requests today and this month',
        response: { 200: Type.Array(Ref(ApiKeyWithUsage)), ...errors() },
      },
    },
    async () => withUsage(app.store, await listApiKeys(app.store)),
  );
}

function showKey(app: TypeBoxApp): void {
  app.get(
    '/keys/:keyId',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Show an active API key, with its requests today and this month',
        params: KeyParams,
        response: { 200: Ref(ApiKeyWithUsage), ...errors({ 404: 'no active key with this id' }) },
      },
    },
    async (request) => (await withUsage(app.store, [await findApiKey(app.store, request.params.keyId)]))[0],
  );
}

function changeKey(app: TypeBoxApp): void {
  app.patch(
    '/keys/:keyId',
    {
      config,
      schema: {
        ...ADMIN,
        summary: "Change a key's limits or plan",
        description: 'A running server applies the change within 5 seconds.',
        params: KeyParams,
        body: KeyChangeBody,
        response: { 200: Ref(ApiKeyInfo), ...errors({ 404: 'no active key with this id, or no such plan' }) },
      },
    },
    async (request) => setApiKeyLimits(app.store, request.params.keyId, request.body),
  );
}

function revokeKey(app: TypeBoxApp): void {
  app.delete(
    '/keys/:keyId',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Revoke an API key',
        description: 'Its requests are refused within 5 seconds, and its open streams end.',
        params: KeyParams,
        response: { 200: Ref(ApiKeyInfo), ...errors({ 404: 'no active key with this id' }) },
      },
    },
    async (request) => revokeApiKey(app.store, request.params.keyId),
  );
}

function rotateKey(app: TypeBoxApp): void {
  app.post(
    '/keys/:keyId/rotate',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Give a key a new secret',
        description:
          'The same key (id, limits, plan, usage) with a new secret, in this answer only; the old secret stops working within 5 seconds.',
        params: KeyParams,
        response: { 200: Ref(IssuedKey), ...errors({ 404: 'no active key with this id' }) },
      },
    },
    async (request) => rotateApiKey(app.store, request.params.keyId),
  );
}

function addPlan(app: TypeBoxApp): void {
  app.post(
    '/plans',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Add a plan',
        body: PlanCreateBody,
        response: { 201: Ref(PlanInfo), ...errors({ 409: 'a plan already has this name' }) },
      },
    },
    async (request, reply) => {
      const { name, ...settings } = request.body;
      reply.code(201);
      return createPlan(app.store, name, settings);
    },
  );
}

function listAllPlans(app: TypeBoxApp): void {
  app.get(
    '/plans',
    {
      config,
      schema: { ...ADMIN, summary: 'List plans', response: { 200: Type.Array(Ref(PlanInfo)), ...errors() } },
    },
    async () => listPlans(app.store),
  );
}

function showPlan(app: TypeBoxApp): void {
  app.get(
    '/plans/:planId',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Show a plan',
        params: PlanParams,
        response: { 200: Ref(PlanInfo), ...errors({ 404: 'no such plan' }) },
      },
    },
    async (request) => findPlan(app.store, request.params.planId),
  );
}

function changePlan(app: TypeBoxApp): void {
  app.patch(
    '/plans/:planId',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Change a plan',
        description: "The plan's keys follow within 5 seconds.",
        params: PlanParams,
        body: PlanChangeBody,
        response: { 200: Ref(PlanInfo), ...errors({ 404: 'no such plan' }) },
      },
    },
    async (request) => setPlan(app.store, request.params.planId, request.body),
  );
}

function exportUsage(app: TypeBoxApp): void {
  app.get(
    '/usage',
    {
      config,
      schema: {
        ...ADMIN,
        summary: 'Export usage: requests per key, UTC day and route',
        description:
          'Every counted request of the days from..to (both included; this month so far by default), as written to the store (every USAGE_FLUSH_SECONDS by each server). ' +
          'JSON, or CSV (`keyId,day,route,requests`) with `Accept: text/csv`.',
        querystring: UsageQuery,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            content: {
              'application/json': { schema: Type.Array(Ref(UsageRow)) },
              'text/csv': { schema: Type.String() },
            },
          },
          ...errors(),
        },
      },
    },
    async (request, reply) => {
      const now = Date.now();
      const { from = utcMonth(now).firstDay, to = utcDay(now), keyId } = request.query;
      const rows = await usageBetween(app.store, { from, to, ...(keyId === undefined ? {} : { keyId }) });
      if (new Negotiator(request.raw).mediaType(['application/json', 'text/csv']) !== 'text/csv') return rows;
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="usage-${from}-${to}.csv"`);
      return usageCsv(rows);
    },
  );
}
