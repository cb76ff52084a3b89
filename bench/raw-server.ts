import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { reportPort } from './children.ts';

/**
 * The reference server: plain `node:http` answering every request with one fixed body.
 * Usage (by bench/run.ts): raw-server.ts <body-file> <content-type>
 */

const [bodyFile, contentType] = process.argv.slice(2);
if (!bodyFile || !contentType) throw new Error('usage: raw-server.ts <body-file> <content-type>');
const body = readFileSync(bodyFile);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('unexpected server address');
  reportPort(address.port);
});
