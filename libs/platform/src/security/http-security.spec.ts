import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import pino from 'pino';
import { headersCheckIntervalMs, limitSlowClients } from './http-security';

/** Short, so the test is quick; the product's default is 10 s. */
const HEADERS_TIMEOUT_MS = 1500;
/** Generous for a loaded machine, and far below the 30 s Node's own check took. */
const CLOSED_WITHIN_MS = 2 * HEADERS_TIMEOUT_MS;
const TRICKLE_EVERY_MS = 500;

/** Resolves with what the server sent once it closed the socket, or fails once `withinMs` have passed. */
function closedByServer(socket: Socket, withinMs: number): Promise<{ answer: string }> {
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${withinMs} ms`)), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ answer });
    });
    socket.on('error', () => undefined);
  });
}

/** Writes one more header line every TRICKLE_EVERY_MS, never ending the header section, until the socket closes. */
function trickle(socket: Socket): void {
  let line = 0;
  const timer = setInterval(() => socket.write(`X-Trickle-${line++}: still coming\r\n`), TRICKLE_EVERY_MS);
  socket.once('close', () => clearInterval(timer));
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The next answer on a kept-alive socket (these answers are short: one chunk holds all of it). */
function nextAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
}

describe('limitSlowClients: the whole header section within HEADERS_TIMEOUT_MS', () => {
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];
  const open = async () => {
    const socket = await openSocket(port);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    limitSlowClients(
      server,
      { headersTimeoutMs: HEADERS_TIMEOUT_MS, bodyIdleTimeoutMs: 15_000, maxConnectionsPerAddress: 0, keepAliveTimeoutMs: 65_000 },
      () => false,
      pino({ level: 'silent' }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('checks for late headers often: a tenth of the limit, from 100 ms to 1 s', () => {
    expect([1000, HEADERS_TIMEOUT_MS, 10_000, 60_000].map(headersCheckIntervalMs)).toEqual([100, 150, 1000, 1000]);
  });

  it('closes a connection that trickles a header line every 0.5 s (408), though it is never idle', async () => {
    const socket = await open();
    const closed = closedByServer(socket, CLOSED_WITHIN_MS);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    trickle(socket);
    const { answer } = await closed;
    expect(answer === '' || answer.startsWith('HTTP/1.1 408 ')).toBe(true);
  });

  it('on a kept-alive connection, gives each request the limit from its own start, and leaves the idle connection open meanwhile', async () => {
    const socket = await open();
    let answer = nextAnswer(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    // Idle for longer than the header limit: the connection is kept alive, not closed.
    await new Promise((resolve) => setTimeout(resolve, HEADERS_TIMEOUT_MS + 500));
    answer = nextAnswer(socket);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);

    const closed = closedByServer(socket, CLOSED_WITHIN_MS);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    trickle(socket);
    const { answer: last } = await closed;
    expect(last === '' || last.startsWith('HTTP/1.1 408 ')).toBe(true);
  });

  it('answers headers that arrive in pieces within the limit', async () => {
    const socket = await open();
    const answer = nextAnswer(socket);
    socket.write('GET / HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write('Host: x\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
