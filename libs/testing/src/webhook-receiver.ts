import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a webhook receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered (0 while it hangs). */
  answered: number;
}

/**
 * What the receiver answers a request on a path: a status, or 'hang' (no answer until the
 * connection closes). Called with the requests already received on that path.
 */
export type ReceiverBehaviour = (path: string, earlier: ReceivedWebhook[]) => number | 'hang';

/**
 * A real HTTP receiver on a loopback port for webhook tests: records every POST with its headers
 * and raw body, and answers as `behaviour` says (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  behaviour: ReceiverBehaviour = () => 200;

  static async start(): Promise<WebhookReceiver> {
    const holder: { receiver?: WebhookReceiver } = {};
    const server = createServer((request, response) => void holder.receiver!.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.receiver = new WebhookReceiver(server, (server.address() as AddressInfo).port);
    return holder.receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const entry: ReceivedWebhook = { path, headers, body: Buffer.concat(chunks).toString('utf8'), answered: 0 };
    const answer = this.behaviour(path, this.on(path));
    this.received.push(entry);
    if (answer === 'hang') {
      this.hanging.add(response);
      response.on('close', () => this.hanging.delete(response));
      return;
    }
    entry.answered = answer;
    response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now');
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
