import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface KafkaMock {
  /** Comma-separated list, as Kafka clients take it. */
  bootstrapServers: string;
  /** The same list split, as kafkajs takes it. */
  brokers: string[];
  stop(): Promise<void>;
}

/** True when Debian's kcat (which carries librdkafka's mock cluster) is on the PATH. */
export function isKcatInstalled(): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, 'kcat'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Starts librdkafka's mock Kafka cluster (produce, fetch, consumer groups; topics are created on
 * first use). kcat runs under a small shell that kills it when our stdin closes, so the mock never
 * outlives the test process, even when jest is killed.
 */
export async function startKafkaMock(options: { brokers?: number; startTimeoutMs?: number } = {}): Promise<KafkaMock> {
  const kcatArgs = ['-X', `test.mock.num.brokers=${options.brokers ?? 3}`, '-b', 'unused:9092', '-C', '-t', 'keepalive', '-d', 'mock', '-q'];
  const child = spawn('sh', ['-c', 'kcat "$@" & k=$!; read _; kill $k 2>/dev/null; wait $k', 'sh', ...kcatArgs], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return exited;
    stopped = true;
    process.removeListener('exit', stopOnExit);
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const bootstrapServers = await readBootstrapServers(child, exited, options.startTimeoutMs ?? 15000);
    return { bootstrapServers, brokers: bootstrapServers.split(','), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function readBootstrapServers(child: ChildProcess, exited: Promise<void>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let found = false;
    const onData = (chunk: Buffer) => {
      if (found) return; // keep draining the debug output so kcat never blocks on a full pipe
      seen = (seen + chunk.toString()).slice(-8192);
      const match = /bootstrap\.servers=(\S+)/.exec(seen);
      if (match) {
        found = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const timer = setTimeout(() => reject(new Error(`kcat mock cluster did not report its address within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    void exited.then(() => {
      clearTimeout(timer);
      if (!found) reject(new Error(`kcat exited before reporting its address:\n${seen}`));
    });
  });
}

/** The product's settings (BUS_DRIVER=kafka, KAFKA_BROKERS) that point it at this mock cluster. */
export function kafkaBusEnv(kafka: KafkaMock): Record<string, string> {
  return { BUS_DRIVER: 'kafka', KAFKA_BROKERS: kafka.bootstrapServers };
}
