import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isCompetitionKey } from '../domain/competitions.ts';
import { ApiError, badRequest } from '../domain/errors.ts';
import type { Store } from '../store/database.ts';
import { keysRepository } from '../store/repositories/keys-repository.ts';
import type { ApiKeyRow } from '../store/schema.ts';

/**
 * API keys. Only a SHA-256 hash of each key is stored; the key itself is shown once, at creation.
 * A key may be limited to some competitions (null means every competition).
 */

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  competitions: string[] | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface VerifiedKey {
  id: string;
  name: string;
  competitions: readonly string[] | null;
}

const PREFIX_LENGTH = 12;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares two secrets in time independent of where they differ. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
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
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

export function parseCompetitionList(value: string | undefined): string[] | null {
  if (value === undefined || value.trim() === '' || value.trim() === '*') return null;
  const keys = value.split(',').map((k) => k.trim()).filter(Boolean);
  const unknown = keys.filter((k) => !isCompetitionKey(k));
  if (unknown.length) throw badRequest(`Unknown competition key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  return [...new Set(keys)];
}

export async function createApiKey(
  store: Store,
  options: { name: string; competitions?: string[] | null; key?: string; now?: Date },
): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = options.key ?? generateKey();
  if (key.length < 16) throw badRequest('An API key must be at least 16 characters long');
  const row: ApiKeyRow = {
    id: randomUUID(),
    name: options.name,
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, PREFIX_LENGTH),
    ratePerMinute: null,
    ratePerDay: null,
    competitions: options.competitions ? JSON.stringify(options.competitions) : null,
    createdAt: (options.now ?? new Date()).toISOString(),
    revokedAt: null,
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
  const rows = await keysRepository(store.db).revoke(idOrPrefix, now.toISOString());
  if (rows.length === 0) throw new ApiError(404, `No active API key has the id or prefix "${idOrPrefix}"`);
  if (rows.length > 1) throw badRequest(`The prefix "${idOrPrefix}" matches ${rows.length} keys; give the key's id`);
  return toInfo(rows[0] as ApiKeyRow);
}

/**
 * Verifies keys, remembering answers briefly so that a hot route does not query the store for every
 * request. A revocation therefore takes effect within `ttlMs` (docs/decisions.md, "Auth").
 */
export function keyVerifier(store: Store, ttlMs = 5_000, maxEntries = 10_000) {
  const cache = new Map<string, { key: VerifiedKey | null; until: number }>();
  // Keyed by the presented key itself: a hit costs no hashing. The map lives only in this process.
  return async (presented: string): Promise<VerifiedKey | null> => {
    const now = Date.now();
    const hit = cache.get(presented);
    if (hit && hit.until > now) return hit.key;
    const row = await keysRepository(store.db).findActiveByHash(hashKey(presented));
    const key = row ? { id: row.id, name: row.name, competitions: row.competitions ? (JSON.parse(row.competitions) as string[]) : null } : null;
    if (cache.size >= maxEntries) cache.clear();
    cache.set(presented, { key, until: now + ttlMs });
    return key;
  };
}
