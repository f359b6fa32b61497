import { freePort, RunningProcess, startTypeScript, waitForLine } from '@dc/testing';

const FIXTURE = 'libs/platform/src/process/testing/unheard-errors.fixture.ts';

/** The policy in a real process: Node's default would end it at the first unheard error. */
describe('process error policy (a real process)', () => {
  let server: RunningProcess | undefined;
  let port: number;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("after start, logs an unheard error with the call's correlation id and goes on serving", async () => {
    port = await freePort();
    server = startTypeScript('fixture', FIXTURE, { PORT: String(port) });
    await waitForLine(server, (line) => line.includes('"listening"'));
    for (const [route, id] of [
      ['/emitter', 'corr-emitter'],
      ['/rejection', 'corr-rejection'],
    ]) {
      expect((await fetch(`http://127.0.0.1:${port}${route}`, { headers: { 'x-correlation-id': id } })).status).toBe(202);
      const line = JSON.parse(await waitForLine(server, (l) => l.includes('uncaught error contained') && l.includes(id)));
      expect(line).toMatchObject({ level: 50, correlationId: id, err: { message: expect.stringMatching(/nobody (listened|awaited)/) } });
    }
    const ok = await fetch(`http://127.0.0.1:${port}/ok`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('contained 2');
    expect(server.process.exitCode).toBeNull();
  });

  it('during start-up, an unheard error is fatal: logged, and the process exits with 1', async () => {
    server = startTypeScript('fixture', FIXTURE, { PORT: String(await freePort()), FAIL_DURING_START: '1' });
    expect(await server.exited).toBe(1);
    const fatal = server.lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message: string } }).find((l) => l.level === 60);
    expect(fatal).toMatchObject({ msg: 'start-up failed', err: { message: 'broken during start-up' } });
  });
});
