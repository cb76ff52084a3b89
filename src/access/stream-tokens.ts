import { createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Store } from '../store/database.ts';
import { keysRepository } from '../store/repositories/keys-repository.ts';
import { narrowScope, type VerifiedKey } from './api-keys.ts';

/**
 * Stream tokens (issue 28): a browser's EventSource cannot send the key, and a key in the page or the
 * address bar leaks. A token is `<payload>.<signature>`, the payload the key's id, its competitions and
 * an expiry, signed with HMAC-SHA256 under the key's stored hash. Every node can check it without a
 * shared secret of its own, a token says nothing about the key, and it dies with its key: a revoked
 * key's row is no longer found (within the 5 s a key's row is remembered).
 */

interface TokenPayload {
  /** The key's id. */
  k: string;
  /** The competitions the key could read when the token was issued; null for all. */
  c: string[] | null;
  /** Expiry, seconds since the epoch. */
  e: number;
}

const sign = (keyHash: string, payload: string) =>
  createHmac('sha256', keyHash).update(`altsports-stream-token:${payload}`).digest();

/** A token for `key` (whose stored hash is `keyHash`) that expires `ttlSeconds` from `now`. */
export function issueStreamToken(
  key: Pick<VerifiedKey, 'id' | 'competitions'>,
  keyHash: string,
  ttlSeconds: number,
  now = new Date(),
): { token: string; expiresAt: string } {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const payload: TokenPayload = { k: key.id, c: key.competitions ? [...key.competitions] : null, e: expires };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return {
    token: `${encoded}.${sign(keyHash, encoded).toString('base64url')}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  };
}

function parsePayload(encoded: string): TokenPayload | null {
  try {
    const value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<TokenPayload>;
    if (typeof value.k === 'string' && Number.isInteger(value.e) && (value.c === null || Array.isArray(value.c)))
      return value as TokenPayload;
  } catch {
    // not a token
  }
  return null;
}

/**
 * Checks tokens: the key of a valid, unexpired token whose key is still active, with the competitions
 * both the token and the key allow; null otherwise. Keys' rows are remembered for `ttlMs`.
 */
export function streamTokenVerifier(store: Store, ttlMs = 5_000) {
  const rows = new LRUCache<
    string,
    { row: Awaited<ReturnType<ReturnType<typeof keysRepository>['findActiveById']>> | null }
  >({
    max: 10_000,
    ttl: ttlMs,
    perf: { now: () => Date.now() },
    ttlResolution: 0,
    fetchMethod: async (id) => ({ row: (await keysRepository(store.db).findActiveById(id)) ?? null }),
  });
  return async (token: string, now = Date.now()): Promise<VerifiedKey | null> => {
    const [encoded, signature, extra] = token.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    const payload = parsePayload(encoded);
    if (!payload || payload.e * 1000 <= now) return null;
    const row = (await rows.fetch(payload.k))?.row;
    if (!row) return null;
    const expected = sign(row.keyHash, encoded);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const keyCompetitions = row.competitions ? (JSON.parse(row.competitions) as string[]) : null;
    return {
      id: row.id,
      name: row.name,
      competitions: narrowScope(payload.c, keyCompetitions),
      ratePerMinute: row.ratePerMinute,
      ratePerDay: row.ratePerDay,
      tokenCompetitions: payload.c,
    };
  };
}
