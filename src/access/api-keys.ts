import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export type { ApiKeyInfo } from '../shapes/admin-keys.ts';

import { COMPETITION_KEYS, isCompetitionKey } from '../domain/competitions.ts';
import { fail } from '../domain/errors.ts';
import type { ApiKeyInfo } from '../shapes/admin-keys.ts';
import type { Store } from '../store/database.ts';
import { keysRepository } from '../store/repositories/keys-repository.ts';
import { plansRepository } from '../store/repositories/plans-repository.ts';
import type { ApiKeyRow, PlanRow } from '../store/schema.ts';

/**
 * API keys. Only a SHA-256 hash of each key is stored; the key itself is shown once, at creation.
 * A key may be limited to some competitions (null means every competition), and has its own rate
 * limits per minute and per UTC day (null: its plan's, else the server's default; 0: no limit). A key
 * may belong to a plan (access/plans.ts), whose monthly quota, limits and competitions it takes where
 * it has none of its own.
 */

export interface VerifiedKey {
  id: string;
  name: string;
  competitions: readonly string[] | null;
  ratePerMinute: number | null;
  ratePerDay: number | null;
  /** Requests per calendar month (UTC), from the key's plan; null: no quota. */
  monthlyQuota: number | null;
  /** For a request authenticated by a stream token: the competitions the token names (null: all). */
  tokenCompetitions?: readonly string[] | null;
}

/** A key's own limits; null: the plan's or the server's default, 0: no limit. Undefined leaves a limit as it is. */
export interface KeyLimits {
  ratePerMinute?: number | null;
  ratePerDay?: number | null;
}

/** A key's plan, by id or name; null: none. Undefined leaves it as it is. */
export interface KeyPlan {
  plan?: string | null;
}

const PREFIX_LENGTH = 12;

// One-shot hashing: a third of createHash's cost on a key-sized input; every public request hashes its key.
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Compares two secrets in time independent of where they differ. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

export function generateKey(): string {
  return `ask_${randomBytes(24).toString('base64url')}`;
}

function toInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.keyPrefix,
    competitions: row.competitions ? (JSON.parse(row.competitions) as string[]) : null,
    ratePerMinute: row.ratePerMinute,
    ratePerDay: row.ratePerDay,
    planId: row.planId,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

export function parseCompetitionList(value: string | undefined): string[] | null {
  if (value === undefined || value.trim() === '' || value.trim() === '*') return null;
  const keys = value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = keys.filter((k) => !isCompetitionKey(k));
  if (unknown.length) throw fail('UNKNOWN_COMPETITION', { keys: unknown, known: COMPETITION_KEYS });
  return [...new Set(keys)];
}

export async function createApiKey(
  store: Store,
  options: { name: string; competitions?: string[] | null; key?: string; now?: Date } & KeyLimits & KeyPlan,
): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = options.key ?? generateKey();
  if (key.length < 16) throw fail('API_KEY_TOO_SHORT');
  checkLimits(options);
  const planId = options.plan ? await planIdOf(store, options.plan) : null;
  const row: ApiKeyRow = {
    id: randomUUID(),
    name: options.name,
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, PREFIX_LENGTH),
    ratePerMinute: options.ratePerMinute ?? null,
    ratePerDay: options.ratePerDay ?? null,
    competitions: options.competitions ? JSON.stringify(options.competitions) : null,
    createdAt: (options.now ?? new Date()).toISOString(),
    revokedAt: null,
    planId,
  };
  await keysRepository(store.db).insert(row);
  return { key, info: toInfo(row) };
}

/** Makes sure a known key (the demo key) exists and is active; creates it when missing. */
export async function ensureApiKey(store: Store, name: string, key: string): Promise<void> {
  const existing = await keysRepository(store.db).findByHash(hashKey(key));
  if (!existing) await createApiKey(store, { name, key });
}

export async function listApiKeys(store: Store): Promise<ApiKeyInfo[]> {
  return (await keysRepository(store.db).list()).map(toInfo);
}

export async function revokeApiKey(store: Store, idOrPrefix: string, now = new Date()): Promise<ApiKeyInfo> {
  return onlyKey(await keysRepository(store.db).revoke(idOrPrefix, now.toISOString()), idOrPrefix);
}

/** The active key an id or prefix names (404 when none, 400 when several). */
export async function findApiKey(store: Store, idOrPrefix: string): Promise<ApiKeyInfo> {
  return onlyKey(await keysRepository(store.db).find(idOrPrefix), idOrPrefix);
}

/** Changes an active key's rate limits and plan; takes effect within the verifier's memory (5 s). */
export async function setApiKeyLimits(
  store: Store,
  idOrPrefix: string,
  limits: KeyLimits & KeyPlan,
): Promise<ApiKeyInfo> {
  checkLimits(limits);
  const { plan, ...rates } = limits;
  const changes = plan === undefined ? rates : { ...rates, planId: plan === null ? null : await planIdOf(store, plan) };
  return onlyKey(await keysRepository(store.db).setLimits(idOrPrefix, changes), idOrPrefix);
}

/** A new secret for an active key, its id, limits and usage kept; the old secret stops working within 5 s. */
export async function rotateApiKey(store: Store, idOrPrefix: string): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = generateKey();
  const info = onlyKey(
    await keysRepository(store.db).setSecret(idOrPrefix, hashKey(key), key.slice(0, PREFIX_LENGTH)),
    idOrPrefix,
  );
  return { key, info };
}

async function planIdOf(store: Store, plan: string): Promise<string> {
  const row = await plansRepository(store.db).find(plan);
  if (!row) throw fail('PLAN_NOT_FOUND', { plan }, { plan });
  return row.id;
}

/** The one active key an id or prefix named; the repository changed it only if there was exactly one. */
function onlyKey(rows: ApiKeyRow[], idOrPrefix: string): ApiKeyInfo {
  if (rows.length === 0) throw fail('API_KEY_NOT_FOUND', { idOrPrefix });
  if (rows.length > 1) {
    const candidates = rows.map((row) => `${row.id} (${row.name})`);
    throw fail('API_KEY_AMBIGUOUS', { idOrPrefix, candidates }, { candidates: rows.map((row) => row.id) });
  }
  return toInfo(rows[0] as ApiKeyRow);
}

function checkLimits(limits: KeyLimits): void {
  checkWholeNumbers({ ratePerMinute: limits.ratePerMinute, ratePerDay: limits.ratePerDay });
}

/** Limits as keys and plans take them: whole numbers (0: none), null or undefined. */
export function checkWholeNumbers(settings: Record<string, number | null | undefined>): void {
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0))
      throw fail('KEY_LIMIT_INVALID', { name, value });
  }
}

/**
 * Verifies keys, remembering answers (a key, or that there is none) briefly, so that a hot route does
 * not query the store for every request. A revocation therefore takes effect within `ttlMs`
 * (docs/decisions.md, "Auth"). Keyed, like the store, by the key's SHA-256: a caller cannot steer how
 * far a comparison with a real key runs (a lookup compares digests it cannot choose), so timing tells
 * nothing of the keys.
 *
 * `connection`: the request's connection, whose last answer is kept with it until that answer's time
 * to live ends. A client polling on one connection presents the same key every time, and its
 * requests then skip the digest and the lookup, most of what verifying costs (docs/decisions.md
 * "The cost of a polling answer"). A presented key that differs in any way is verified as usual.
 */
export function keyVerifier(store: Store, ttlMs = 5_000, maxEntries = 10_000) {
  const remembered = new LRUCache<string, { key: VerifiedKey | null }>({
    max: maxEntries,
    ttl: ttlMs,
    // The wall clock, read each time, as the rate limits' windows follow it (and as tests set it).
    perf: { now: () => Date.now() },
    ttlResolution: 0,
    fetchMethod: async (digest) => {
      const row = await keysRepository(store.db).findActiveByHash(digest);
      return { key: row ? await verifiedKeyOf(store, row) : null };
    },
  });
  const lastOn = new WeakMap<object, { presented: string; key: VerifiedKey | null; untilMs: number }>();
  const rememberOn = (connection: object | undefined, presented: string, digest: string, key: VerifiedKey | null) => {
    // Until the remembered answer expires: a revocation still takes effect within ttlMs.
    if (connection)
      lastOn.set(connection, { presented, key, untilMs: Date.now() + remembered.getRemainingTTL(digest) });
    return key;
  };
  // The answer itself when the key was verified within ttlMs (most requests): no promise to wait on.
  return (presented: string, connection?: object): VerifiedKey | null | Promise<VerifiedKey | null> => {
    const last = connection && lastOn.get(connection);
    if (last && last.presented === presented && Date.now() < last.untilMs) return last.key;
    const digest = hashKey(presented);
    const known = remembered.get(digest);
    if (known) return rememberOn(connection, presented, digest, known.key);
    return remembered.fetch(digest).then((found) => rememberOn(connection, presented, digest, found?.key ?? null));
  };
}

/**
 * The competitions each of these keys reads now (null: all), for the keys still active; a key missing
 * from the answer was revoked. Open streams are checked with it.
 */
export async function activeKeyScopes(
  store: Store,
  ids: readonly string[],
): Promise<Map<string, readonly string[] | null>> {
  const rows = await keysRepository(store.db).findActiveByIds(ids);
  const plans = await plansOf(store, rows);
  return new Map(rows.map((row) => [row.id, verifiedKey(row, plans.get(row.planId ?? '')).competitions]));
}

/** What a token naming `tokenCompetitions` reads under a key that reads `keyCompetitions` (null: all). */
export function narrowScope(
  tokenCompetitions: readonly string[] | null,
  keyCompetitions: readonly string[] | null,
): readonly string[] | null {
  if (tokenCompetitions === null) return keyCompetitions;
  return tokenCompetitions.filter((c) => keyCompetitions?.includes(c) ?? true);
}

/** The active key with this id as requests see it (404 when none). */
export async function verifiedKeyById(store: Store, id: string): Promise<VerifiedKey> {
  const row = await keysRepository(store.db).findActiveById(id);
  if (!row) throw fail('API_KEY_NOT_FOUND', { idOrPrefix: id });
  return verifiedKeyOf(store, row);
}

/** A key as requests see it: its own settings, else its plan's. */
export async function verifiedKeyOf(store: Store, row: ApiKeyRow): Promise<VerifiedKey> {
  return verifiedKey(row, (await plansOf(store, [row])).get(row.planId ?? ''));
}

async function plansOf(store: Store, rows: readonly ApiKeyRow[]): Promise<Map<string, PlanRow>> {
  const ids = [...new Set(rows.flatMap((row) => (row.planId ? [row.planId] : [])))];
  return new Map((await plansRepository(store.db).findByIds(ids)).map((plan) => [plan.id, plan]));
}

function verifiedKey(row: ApiKeyRow, plan: PlanRow | undefined): VerifiedKey {
  const competitions = row.competitions ?? plan?.competitions ?? null;
  return {
    id: row.id,
    name: row.name,
    competitions: competitions ? (JSON.parse(competitions) as string[]) : null,
    ratePerMinute: row.ratePerMinute ?? plan?.ratePerMinute ?? null,
    ratePerDay: row.ratePerDay ?? plan?.ratePerDay ?? null,
    monthlyQuota: plan?.monthlyQuota ?? null,
  };
}
