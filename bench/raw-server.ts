import { readFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { reportPort } from './children.ts';

/**
 * The reference server: plain `node:http` answering every request with one fixed body and status
 * (200 unless given; the parlay reference answers 201 like POST .../sgp). A request with a body
 * (POST) is read to its end first, as altsports must.
 * Usage (by bench/run.ts): raw-server.ts <body-file> <content-type> [<status>]
 */

const [bodyFile, contentType, statusText = '200'] = process.argv.slice(2);
if (!bodyFile || !contentType) throw new Error('usage: raw-server.ts <body-file> <content-type> [<status>]');
const body = readFileSync(bodyFile);
const status = Number(statusText);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const answer = (response: ServerResponse) => {
  response.writeHead(status, headers);
  response.end(body);
};
const server = createServer((request: IncomingMessage, response) => {
  if (request.method === 'GET' || request.method === 'HEAD') return answer(response);
  request.resume();
  request.once('end', () => answer(response));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('unexpected server address');
  reportPort(address.port);
});
