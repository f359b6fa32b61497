import { TimeoutError, withTimeout } from './with-timeout';

describe('withTimeout', () => {
  it('settles like the work when it finishes first', async () => {
    await expect(withTimeout(Promise.resolve(7), 10_000)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('no')), 10_000)).rejects.toThrow('no');
  });

  it('rejects with TimeoutError and calls onTimeout when the work never ends', async () => {
    let stopped = false;
    const result = withTimeout(new Promise(() => undefined), 5, () => (stopped = true));
    await expect(result).rejects.toBeInstanceOf(TimeoutError);
    expect(stopped).toBe(true);
  });
});
