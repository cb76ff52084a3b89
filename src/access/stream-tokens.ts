import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Store } from '../store/database.ts';
import { keysRepository } from '../store/repositories/keys-repository.ts';
import { streamSecretsRepository } from '../store/repositories/stream-secrets-repository.ts';
import type { StreamTokenSecretRow } from '../store/schema.ts';
import { narrowScope, type VerifiedKey, verifiedKeyOf } from './api-keys.ts';

/**
 * Stream tokens: a browser's EventSource cannot send the key, and a key in the page or the
 * address bar leaks. A token is `<payload>.<signature>`, both base64url without padding: the payload
 * names the key, its competitions, when the token was issued and when it expires, and the secret it is
 * signed with (HMAC-SHA256). The secrets are random and kept in the store, so every node
 * signs and checks with the same ones and nothing a key holder knows can sign: a token signed with
 * key material, or whose lifetime exceeds STREAM_TOKEN_SECONDS, is refused. A token dies with its key
 * (a revoked key's row is no longer found, within the 5 s rows are remembered).
 */

interface TokenPayload {
  /** The key's id. */
  k: string;
  /** The competitions the key could read when the token was issued; null for all. */
  c: string[] | null;
  /** Issued, seconds since the epoch. */
  i: number;
  /** Expiry, seconds since the epoch. */
  e: number;
  /** The id of the secret that signed it. */
  s: string;
}

/** How long a node remembers the secrets and keys' rows; a rotation reaches every node within it. */
const REMEMBER_MS = 5_000;

const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`altsports-stream-token:${payload}`).digest();

/** The secrets held, read from the store at most every REMEMBER_MS. */
function secretsOf(store: Store) {
  const cache = new LRUCache<'all', StreamTokenSecretRow[]>({
    max: 1,
    ttl: REMEMBER_MS,
    perf: { now: () => Date.now() },
    ttlResolution: 0,
    fetchMethod: () => streamSecretsRepository(store.db).list(),
  });
  return async () => (await cache.fetch('all')) ?? [];
}

/** Issues tokens for verified keys, lasting `tokenSeconds`, signed with the current secret. */
export function streamTokenIssuer(store: Store, tokenSeconds: number) {
  const secrets = secretsOf(store);
  return async (
    key: Pick<VerifiedKey, 'id' | 'competitions'>,
    now = new Date(),
  ): Promise<{ token: string; expiresAt: string }> => {
    const current = (await secrets()).find((s) => s.retiredAt === null);
    if (!current) throw new Error('the store holds no stream token secret: run altsports migrate');
    const issued = Math.floor(now.getTime() / 1000);
    const payload: TokenPayload = {
      k: key.id,
      c: key.competitions ? [...key.competitions] : null,
      i: issued,
      e: issued + tokenSeconds,
      s: current.id,
    };
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return {
      token: `${encoded}.${sign(current.secret, encoded).toString('base64url')}`,
      expiresAt: new Date(payload.e * 1000).toISOString(),
    };
  };
}

/**
 * Retires the current secret for a new random one; tokens of the retired one are honoured until they
 * expire (`tokenSeconds` after the rotation at most), and secrets retired longer ago are deleted.
 */
export async function rotateStreamSecret(
  store: Store,
  { tokenSeconds, now = new Date() }: { tokenSeconds: number; now?: Date },
): Promise<{ id: string; createdAt: string }> {
  const next: StreamTokenSecretRow = {
    id: randomBytes(6).toString('base64url'),
    secret: randomBytes(32).toString('base64url'),
    createdAt: now.toISOString(),
    retiredAt: null,
  };
  await streamSecretsRepository(store.db).rotate(next, new Date(now.getTime() - tokenSeconds * 1000).toISOString());
  return { id: next.id, createdAt: next.createdAt };
}

/** Base64url as Node writes it: no padding, and no other text that decodes to the same bytes. */
function canonicalBytes(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

function parsePayload(encoded: string): TokenPayload | null {
  const bytes = canonicalBytes(encoded);
  if (!bytes) return null;
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<TokenPayload>;
    if (
      typeof value.k === 'string' &&
      typeof value.s === 'string' &&
      Number.isInteger(value.i) &&
      Number.isInteger(value.e) &&
      (value.c === null || Array.isArray(value.c))
    )
      return value as TokenPayload;
  } catch {
    // not a token
  }
  return null;
}

/** Whether `secret` may still vouch for tokens at `nowSeconds`: current, or retired less than a lifetime ago. */
function secretHonoured(secret: StreamTokenSecretRow, nowSeconds: number, tokenSeconds: number): boolean {
  return secret.retiredAt === null || Date.parse(secret.retiredAt) / 1000 + tokenSeconds > nowSeconds;
}

/**
 * Checks tokens: the key of a valid, unexpired token, signed by a secret the store holds, whose key is
 * still active, with the competitions both the token and the key allow; null otherwise.
 */
export function streamTokenVerifier(store: Store, tokenSeconds: number) {
  const secrets = secretsOf(store);
  const rows = new LRUCache<string, { key: VerifiedKey | null }>({
    max: 10_000,
    ttl: REMEMBER_MS,
    perf: { now: () => Date.now() },
    ttlResolution: 0,
    fetchMethod: async (id) => {
      const row = await keysRepository(store.db).findActiveById(id);
      return { key: row ? await verifiedKeyOf(store, row) : null };
    },
  });
  return async (token: string, now = Date.now()): Promise<VerifiedKey | null> => {
    const [encoded, signature, extra] = token.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    const payload = parsePayload(encoded);
    const given = canonicalBytes(signature);
    if (!payload || !given || payload.e * 1000 <= now || payload.e - payload.i > tokenSeconds) return null;
    const secret = (await secrets()).find((s) => s.id === payload.s);
    if (!secret || !secretHonoured(secret, now / 1000, tokenSeconds)) return null;
    const expected = sign(secret.secret, encoded);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const key = (await rows.fetch(payload.k))?.key;
    if (!key) return null;
    return { ...key, competitions: narrowScope(payload.c, key.competitions), tokenCompetitions: payload.c };
  };
}
