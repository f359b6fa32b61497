import { Client } from 'pg';

export interface ChannelListener {
  /** A payload sent with NOTIFY on the channel (by any process, this one included), after its commit. */
  message(payload: string): void;
  /**
   * The channel is listened to again (first start or after a lost connection). Notifications sent
   * while it was not are gone: reload whatever they would have told.
   */
  connected(): Promise<void> | void;
  /** The connection is lost; nothing is heard until connected() is called again. */
  lost(error?: unknown): void;
}

const RETRY_MS = 1_000;
const channelName = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL LISTEN on one channel over a connection of its own, kept open: every process on the
 * database hears every NOTIFY within milliseconds of its commit. Reconnects every second after a
 * loss, telling the listener both ways so it can fall back meanwhile.
 */
export class NotificationChannel {
  private client: Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    readonly channel: string,
    private readonly listener: ChannelListener,
  ) {
    if (!channelName.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
  }

  /** Resolves once listening (or once the first attempt failed; it retries in the background). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  /** Whether the channel is listened to right now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: `listen:${this.channel}` });
    let failed = false;
    const fail = (error?: unknown) => {
      if (failed) return;
      failed = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.listener.lost(error);
      this.retry = setTimeout(() => void this.connect(), RETRY_MS);
    };
    client.on('error', fail);
    client.on('end', () => fail());
    client.on('notification', (notification) => {
      if (notification.channel === this.channel) this.listener.message(notification.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.stopped) return void (await client.end());
      this.client = client;
      await this.listener.connected();
    } catch (error) {
      fail(error);
    }
  }
}
