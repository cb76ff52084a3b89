import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { BOARD_PATH } from '../plugins/openapi.ts';

/**
 * The live board: a page served without a key (like /docs), whose script calls the public API
 * with the demo key (passed in a meta tag), a `?key=` or a key kept in the browser. Static files read
 * once at start; hidden from the OpenAPI document. Its content security policy is in security-headers.ts.
 */
const page = (name: string) => readFileSync(new URL(`../pages/board/${name}`, import.meta.url), 'utf8');
// The stream's parser, served as the package ships it for browsers (an ES module without dependencies).
const sseParser = () =>
  readFileSync(fileURLToPath(import.meta.resolve('eventsource-parser')), 'utf8').replace(
    /\n\/\/# sourceMappingURL=.*\n?$/,
    '\n',
  );

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const boardRoutes: FastifyPluginAsync<{ demoApiKey: string | null }> = async (app, options) => {
  const html = page('board.html').replace(
    '<!--altsports:demo-key-->',
    options.demoApiKey ? `<meta name="altsports-demo-key" content="${escapeAttribute(options.demoApiKey)}">` : '',
  );
  const files = [
    { path: BOARD_PATH, type: 'text/html; charset=utf-8', body: html },
    { path: `${BOARD_PATH}/board.js`, type: 'text/javascript; charset=utf-8', body: page('board.js') },
    { path: `${BOARD_PATH}/board.css`, type: 'text/css; charset=utf-8', body: page('board.css') },
    { path: `${BOARD_PATH}/eventsource-parser.js`, type: 'text/javascript; charset=utf-8', body: sseParser() },
  ];
  for (const file of files) {
    app.get(file.path, { schema: { hide: true }, config: { access: 'open' } }, async (_request, reply) =>
      reply.type(file.type).send(file.body),
    );
  }
};
