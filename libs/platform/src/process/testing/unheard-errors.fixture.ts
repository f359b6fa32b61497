/**
 * A small HTTP server under the process error policy, for process-error-policy.spec.ts. Run with
 * tools/scripts/run-ts.cjs. Environment:
 *   PORT                where to listen
 *   FAIL_DURING_START   `1`: an unheard error is emitted before the server is marked as started
 * Routes: /emitter (an `error` event nobody listens to, after answering, as a stream of a request
 * does), /rejection (a promise nobody awaits rejects), /ok. Logs are pino JSON lines on stdout.
 */
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import { runWithCorrelationId } from '../../logging/context';
import { createLogger } from '../../logging/logger';
import { installProcessErrorPolicy } from '../process-error-policy';

const logger = createLogger({ service: 'fixture', level: 'info' });
const policy = installProcessErrorPolicy(logger);

if (process.env.FAIL_DURING_START === '1') setImmediate(() => new EventEmitter().emit('error', new Error('broken during start-up')));

const server = createServer((req, res) => {
  // The product's correlation id, so the contained error names the call it came from.
  const id = req.headers['x-correlation-id'];
  runWithCorrelationId(typeof id === 'string' ? id : undefined, () => {
    const url = req.url ?? '/';
    if (url === '/emitter') {
      res.writeHead(202).end();
      setImmediate(() => new EventEmitter().emit('error', new Error('nobody listened')));
      return;
    }
    if (url === '/rejection') {
      res.writeHead(202).end();
      void Promise.reject(new Error('nobody awaited'));
      return;
    }
    res.writeHead(url === '/ok' ? 200 : 404).end(`contained ${policy.contained}`);
  });
});

setTimeout(() => {
  server.listen(Number(process.env.PORT), '127.0.0.1', () => {
    policy.markStarted();
    logger.info('listening');
  });
}, 100);
