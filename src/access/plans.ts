import { randomUUID } from 'node:crypto';

export type { PlanInfo } from '../shapes/admin-keys.ts';

import { fail } from '../domain/errors.ts';
import type { PlanInfo } from '../shapes/admin-keys.ts';
import type { Store } from '../store/database.ts';
import { plansRepository } from '../store/repositories/plans-repository.ts';
import type { PlanRow } from '../store/schema.ts';
import { checkWholeNumbers } from './api-keys.ts';

/**
 * Plans, as a data API is sold: a monthly quota (requests per calendar month, UTC), per-minute and
 * per-day limits and the competitions it reads. A key on a plan takes each of these it does not set
 * itself (access/api-keys.ts). Shared by `altsports plans` and the admin API.
 */

/** What a plan is made of; undefined leaves a setting as it is. */
export interface PlanSettings {
  monthlyQuota?: number | null;
  ratePerMinute?: number | null;
  ratePerDay?: number | null;
  competitions?: string[] | null;
}

function toInfo(row: PlanRow): PlanInfo {
  return {
    id: row.id,
    name: row.name,
    monthlyQuota: row.monthlyQuota,
    ratePerMinute: row.ratePerMinute,
    ratePerDay: row.ratePerDay,
    competitions: row.competitions ? (JSON.parse(row.competitions) as string[]) : null,
    createdAt: row.createdAt,
  };
}

function checkSettings({ monthlyQuota, ratePerMinute, ratePerDay }: PlanSettings): void {
  checkWholeNumbers({ monthlyQuota, ratePerMinute, ratePerDay });
}

/** A plan's columns from its settings: a quota of 0 is none (null), competitions as JSON. */
const columns = ({
  competitions,
  monthlyQuota,
  ...rest
}: PlanSettings): Partial<Omit<PlanRow, 'id' | 'name' | 'createdAt'>> => ({
  ...rest,
  ...(monthlyQuota === undefined ? {} : { monthlyQuota: monthlyQuota || null }),
  ...(competitions === undefined ? {} : { competitions: competitions ? JSON.stringify(competitions) : null }),
});

export async function createPlan(
  store: Store,
  name: string,
  settings: PlanSettings,
  now = new Date(),
): Promise<PlanInfo> {
  checkSettings(settings);
  const trimmed = name.trim();
  if (!trimmed) throw fail('PLAN_NAME_MISSING');
  const plans = plansRepository(store.db);
  if (await plans.find(trimmed)) throw fail('PLAN_NAME_TAKEN', { name: trimmed });
  const row: PlanRow = {
    id: randomUUID(),
    name: trimmed,
    monthlyQuota: null,
    ratePerMinute: null,
    ratePerDay: null,
    competitions: null,
    ...columns(settings),
    createdAt: now.toISOString(),
  };
  await plans.insert(row);
  return toInfo(row);
}

export async function listPlans(store: Store): Promise<PlanInfo[]> {
  return (await plansRepository(store.db).list()).map(toInfo);
}

export async function findPlan(store: Store, idOrName: string): Promise<PlanInfo> {
  const row = await plansRepository(store.db).find(idOrName);
  if (!row) throw fail('PLAN_NOT_FOUND', { plan: idOrName }, { plan: idOrName });
  return toInfo(row);
}

/** Changes a plan; its keys follow within the key verifier's memory (5 s). */
export async function setPlan(store: Store, idOrName: string, settings: PlanSettings): Promise<PlanInfo> {
  checkSettings(settings);
  const plan = await findPlan(store, idOrName);
  await plansRepository(store.db).update(plan.id, columns(settings));
  return findPlan(store, plan.id);
}
