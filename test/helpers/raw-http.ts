import { connect } from 'node:net';

/**
 * Sends `head` (request line and headers) and no body on a raw connection to 127.0.0.1:`port`, and
 * reads until the server closes it: what the server answered without the body. A server that waits
 * for the body ends the connection at its request timeout instead (a 408); the test runner's timeout
 * bounds the wait.
 */
export function rawExchange(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(head);
  });
}
