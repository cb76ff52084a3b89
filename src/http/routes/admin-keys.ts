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
} from '../../shapes/admin-keys.ts';
import { Ref } from '../../shapes/common.ts';
import type { Store } from '../../store/database.ts';
import {
  addPlanOperation,
  changeKeyOperation,
  changePlanOperation,
  exportUsageOperation,
  issueKeyOperation,
  KeyParams,
  listKeysOperation,
  listPlansOperation,
  PlanParams,
  revokeKeyOperation,
  rotateKeyOperation,
  showKeyOperation,
  showPlanOperation,
  UsageExport,
} from '../schemas/admin-keys.ts';
import type { TypeBoxApp } from './typebox-app.ts';

/**
 * Keys, plans and usage over HTTP (the admin API, ADMIN_API_KEY): what `altsports keys` and
 * `altsports plans` do, through the same functions, for an operator's portal or billing system.
 */

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
        ...issueKeyOperation.docs,
        body: KeyCreateBody,
        response: { 201: Ref(IssuedKey), ...issueKeyOperation.errors },
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
        ...listKeysOperation.docs,
        response: { 200: Type.Array(Ref(ApiKeyWithUsage)), ...listKeysOperation.errors },
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
        ...showKeyOperation.docs,
        params: KeyParams,
        response: { 200: Ref(ApiKeyWithUsage), ...showKeyOperation.errors },
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
        ...changeKeyOperation.docs,
        params: KeyParams,
        body: KeyChangeBody,
        response: { 200: Ref(ApiKeyInfo), ...changeKeyOperation.errors },
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
        ...revokeKeyOperation.docs,
        params: KeyParams,
        response: { 200: Ref(ApiKeyInfo), ...revokeKeyOperation.errors },
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
        ...rotateKeyOperation.docs,
        params: KeyParams,
        response: { 200: Ref(IssuedKey), ...rotateKeyOperation.errors },
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
        ...addPlanOperation.docs,
        body: PlanCreateBody,
        response: { 201: Ref(PlanInfo), ...addPlanOperation.errors },
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
      schema: {
        ...listPlansOperation.docs,
        response: { 200: Type.Array(Ref(PlanInfo)), ...listPlansOperation.errors },
      },
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
        ...showPlanOperation.docs,
        params: PlanParams,
        response: { 200: Ref(PlanInfo), ...showPlanOperation.errors },
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
        ...changePlanOperation.docs,
        params: PlanParams,
        body: PlanChangeBody,
        response: { 200: Ref(PlanInfo), ...changePlanOperation.errors },
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
        ...exportUsageOperation.docs,
        querystring: UsageQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: UsageExport, ...exportUsageOperation.errors },
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
