import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMailer } from './file-mailer';
import { CONTRACT_DEFAULT_FROM, mailerContract, SentMail } from './mailer.contract';
import { parseRawMail } from './raw-mail';

const addresses = (header: string) => header.match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? [];

async function readEmlFiles(directory: string): Promise<string[]> {
  const names = (await readdir(directory).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(names.map((name) => readFile(join(directory, name), 'utf8')));
}

function toSentMail(raw: string): SentMail {
  const parsed = parseRawMail(raw);
  return { from: parsed.from, to: addresses(parsed.to), subject: parsed.subject, text: parsed.text ?? '', html: parsed.html };
}

let contractDir = '';
mailerContract(
  'file (.eml)',
  async () => {
    contractDir = await mkdtemp(join(tmpdir(), 'dc-file-mailer-'));
    const mailer = new FileMailer({ directory: join(contractDir, 'mail'), defaultFrom: CONTRACT_DEFAULT_FROM, logger: { log: () => undefined } });
    return { mailer, close: () => rm(contractDir, { recursive: true, force: true }) };
  },
  async () => (await readEmlFiles(join(contractDir, 'mail'))).map(toSentMail),
);

describe('FileMailer specifics', () => {
  let directory: string;
  let lines: string[];
  let mailer: FileMailer;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'dc-file-mailer-'));
    lines = [];
    mailer = new FileMailer({ directory, logger: { log: (line) => lines.push(line) } });
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('writes one well-formed .eml per message and nothing else', async () => {
    await mailer.send({ to: 'a@example.test', subject: 'One', text: 'first' });
    await mailer.send({ to: 'b@example.test', subject: 'Two', text: 'second', html: '<p>second</p>' });
    const names = await readdir(directory);
    expect(names).toHaveLength(2);
    expect(names.every((name) => /^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/.test(name))).toBe(true);
    for (const raw of await readEmlFiles(directory)) {
      expect(raw).toMatch(/\r\n\r\n/); // CRLF line ends, header/body separator
      expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // no bare LF or CR
      const { headers } = parseRawMail(raw);
      for (const header of ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']) expect(headers.has(header)).toBe(true);
      expect(headers.get('from')).toBe('Data Catalogue <no-reply@localhost>');
    }
  });

  it('logs one line with recipient and subject, never the body', async () => {
    await mailer.send({
      to: 'someone@example.test',
      subject: 'Reset your password',
      text: 'token SECRET-TOKEN-123',
      html: '<a href="x?t=SECRET-TOKEN-123">reset</a>',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('someone@example.test');
    expect(lines[0]).toContain('Reset your password');
    expect(lines[0]).not.toContain('SECRET-TOKEN-123');
  });

  it('creates its directory when missing', async () => {
    const nested = new FileMailer({ directory: join(directory, 'data', 'mail'), logger: { log: () => undefined } });
    await nested.send({ to: 'a@example.test', subject: 'x', text: 'y' });
    expect(await readdir(join(directory, 'data', 'mail'))).toHaveLength(1);
  });
});
