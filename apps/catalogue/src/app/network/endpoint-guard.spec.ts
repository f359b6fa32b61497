import { EndpointGuard, EndpointRefusedError } from './endpoint-guard';

describe('EndpointGuard (user-supplied database hosts and S3 endpoints)', () => {
  it('refuses loopback, private, link-local and unknown hosts by default', async () => {
    const guard = new EndpointGuard({ ALLOWED_PRIVATE_ENDPOINTS: '' });
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', '192.168.0.9', '169.254.169.254', '[::1]', '::ffff:127.0.0.1', 'fd00::1', '0.0.0.0']) {
      // One answer for every address the operator does not allow (the connection form says no more).
      await expect(guard.resolve(host)).rejects.toEqual(new EndpointRefusedError('not allowed'));
    }
    await expect(guard.resolve('no-such-host.invalid')).rejects.toMatchObject({ why: 'unknown host' });
    await expect(guard.resolve('93.184.216.34')).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('allows what the operator lists: addresses, ranges and host names', async () => {
    const guard = new EndpointGuard({ ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1, 10.0.0.0/8, localhost' });
    await expect(guard.resolve('127.0.0.1')).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(guard.resolve('10.200.1.1')).resolves.toMatchObject({ address: '10.200.1.1' });
    await expect(guard.resolve('localhost')).resolves.toMatchObject({ family: expect.any(Number) });
    await expect(guard.resolve('192.168.1.1')).rejects.toBeInstanceOf(EndpointRefusedError);
    await expect(guard.resolve('127.0.0.2')).rejects.toBeInstanceOf(EndpointRefusedError);
  });
});
