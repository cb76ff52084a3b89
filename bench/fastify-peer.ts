import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { reportPort } from './children.ts';

/**
 * The peer: the plain Fastify 5 app a user would write to serve one document (docs/decisions.md,
 * "The cost of a polling answer"). Fastify's default request logging (pino at info, two lines a
 * request) to a file; an `onRequest` hook checking the API key; the same body and headers altsports
 * sends, or the same 304 to an `If-None-Match` naming its ETag. What it costs over the raw server is what Fastify itself costs.
 * Usage (by bench/run.ts): fastify-peer.ts <body-file> <content-type> <200-headers-file> <304-headers-file> <api-key> <log-file>
 */

const [bodyFile, contentType, okHeadersFile, notModifiedHeadersFile, apiKey, logFile] = process.argv.slice(2);
if (!bodyFile || !contentType || !okHeadersFile || !notModifiedHeadersFile || !apiKey || !logFile)
  throw new Error(
    'usage: fastify-peer.ts <body-file> <content-type> <200-headers-file> <304-headers-file> <api-key> <log-file>',
  );
const body = readFileSync(bodyFile);
const readHeaders = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
const okHeaders: Record<string, string> = { ...readHeaders(okHeadersFile), 'content-type': contentType };
const notModifiedHeaders = readHeaders(notModifiedHeadersFile);
const etag = okHeaders.etag;

const app = Fastify({ logger: { level: 'info', file: logFile } });
app.addHook('onRequest', async (request, reply) => {
  if (request.headers['x-api-key'] !== apiKey) return reply.code(401).send({ message: 'Invalid API key' });
});
app.get('/*', async (request, reply) => {
  if (etag !== undefined && request.headers['if-none-match'] === etag)
    return reply.code(304).headers(notModifiedHeaders).send();
  return reply.headers(okHeaders).send(body);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
reportPort(Number(new URL(address).port));
