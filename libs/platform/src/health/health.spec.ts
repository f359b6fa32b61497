import { HealthRegistry } from './health';

describe('HealthRegistry', () => {
  const failing = async () => {
    throw new Error('snapshot failed');
  };

  it('is ready while every check is up, and not once a check that fails readiness is down', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => undefined);
    expect(await registry.run()).toEqual({ ok: true, checks: { database: 'up' } });
    registry.register('bus', failing);
    expect(await registry.run()).toEqual({ ok: false, checks: { database: 'up', bus: 'down: snapshot failed' } });
  });

  it('reports a check registered not to fail readiness as degraded, and stays ready', async () => {
    const registry = new HealthRegistry();
    registry.register('database', async () => undefined);
    registry.register('background', failing, { failsReadiness: false });
    expect(await registry.run()).toEqual({ ok: true, checks: { database: 'up', background: 'degraded: snapshot failed' } });
  });

  it('counts a check that does not answer in time as down', async () => {
    const registry = new HealthRegistry();
    registry.register('storage', () => new Promise(() => undefined));
    expect(await registry.run(20)).toEqual({ ok: false, checks: { storage: 'down: timed out' } });
  });
});
