import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { keyVerifier, secretsEqual, type VerifiedKey } from '../../access/api-keys.ts';
import { streamTokenVerifier } from '../../access/stream-tokens.ts';
import { fail } from '../../domain/errors.ts';
import type { AccessScope } from '../../read/access-scope.ts';
import type { Store } from '../../store/database.ts';
import { routeOf } from '../route-config.ts';

/**
 * Who may call what (DESIGN decision 2). Each route declares `config.access`:
 * - `public`: an API key in `X-API-KEY` (any case) or `Authorization: Bearer <key>`;
 * - `admin`: the ADMIN_API_KEY, in the same headers; a public key never opens an admin route;
 * - `open`: no key (health, OpenAPI document, docs page).
 */

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: VerifiedKey | null;
  }
}

/** The key a request presents, in `X-API-KEY` or as `Authorization: Bearer <key>`. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value.trim();
  const authorization = headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1]?.trim();
  }
  return undefined;
}

/** The competitions the request's key may read. */
export function scopeOf(request: FastifyRequest): AccessScope {
  return request.apiKey?.competitions ?? null;
}

export const authPlugin = fp(
  async (
    app: FastifyInstance,
    options: { store: Store; adminApiKey: string | undefined; streamTokenSeconds: number },
  ) => {
    const verify = keyVerifier(options.store);
    const verifyToken = streamTokenVerifier(options.store, options.streamTokenSeconds);
    app.decorateRequest('apiKey', null);

    app.onRequestStep((request) => {
      const access = routeOf(request).config.access ?? 'open';
      if (access === 'open') return undefined;
      const key = presentedKey(request.headers);
      if (access === 'admin') {
        if (!options.adminApiKey) throw fail('ADMIN_API_CLOSED');
        if (!key || !secretsEqual(key, options.adminApiKey)) throw fail('ADMIN_API_KEY_INVALID');
        return undefined;
      }
      const token = (request.query as { token?: unknown } | undefined)?.token;
      if (!key && routeOf(request).config.streamToken && typeof token === 'string')
        return verifyToken(token).then((verified) => admitKey(request, verified, 'STREAM_TOKEN_INVALID'));
      if (!key) throw fail('API_KEY_MISSING');
      const verified = verify(key, request.socket);
      if (verified instanceof Promise) return verified.then((found) => admitKey(request, found, 'API_KEY_INVALID'));
      return admitKey(request, verified, 'API_KEY_INVALID');
    });
  },
  { name: 'auth', dependencies: ['request-steps'] },
);

/** The request's key, or the refusal `invalid` when none was verified. */
function admitKey(
  request: FastifyRequest,
  key: VerifiedKey | null,
  invalid: 'API_KEY_INVALID' | 'STREAM_TOKEN_INVALID',
) {
  if (!key) throw fail(invalid);
  request.apiKey = key;
  return undefined;
}
