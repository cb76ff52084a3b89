import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { reportPort } from './children.ts';

/**
 * The reference server: plain `node:http` answering every request with one fixed body and status
 * (200 unless given; the parlay reference answers 201 like POST .../sgp). A request with a body
 * (POST) is read to its end first, as altsports must. A headers file (JSON object) adds the headers
 * altsports sends (ETag, Last-Modified, ...), so that both put the same bytes on the wire; a 304
 * carries them without a body, content type or length.
 * Usage (by bench/run.ts): raw-server.ts <body-file> <content-type> [<status>] [<headers-file>]
 */

const [bodyFile, contentType, statusText = '200', headersFile] = process.argv.slice(2);
if (!bodyFile || !contentType)
  throw new Error('usage: raw-server.ts <body-file> <content-type> [<status>] [<headers-file>]');
const body = readFileSync(bodyFile);
const status = Number(statusText);
const extra = headersFile ? (JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>) : {};
const headers =
  status === 304 ? extra : { ...extra, 'content-type': contentType, 'content-length': String(body.length) };

const answer = (response: ServerResponse) => {
  response.writeHead(status, headers);
  if (status === 304) response.end();
  else response.end(body);
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
