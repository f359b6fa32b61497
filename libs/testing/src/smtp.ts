import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The message as received (RFC 5322, CRLF line ends). */
  raw: string;
  /** The user that authenticated. */
  user?: string;
}

export interface TestSmtpServer {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  user: string;
  password: string;
  /** Every accepted message, in arrival order; a message is here before the client's send resolves. */
  messages: ReceivedMail[];
  stop(): Promise<void>;
}

/**
 * Starts an in-process SMTP server on a free loopback port. It requires AUTH (PLAIN or LOGIN, in
 * clear text as there is no TLS) with the returned user and password, and refuses anything else.
 */
export async function startSmtpServer(options: { user?: string; password?: string } = {}): Promise<TestSmtpServer> {
  const user = options.user ?? 'mailer';
  const password = options.password ?? 'mailer-secret';
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) return callback(null, { user });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    user,
    password,
    messages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
