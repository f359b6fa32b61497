import { OutgoingAddressGuard, OutgoingAddressRefusedError } from './outgoing-address-guard';

describe('OutgoingAddressGuard (ALLOWED_PRIVATE_ENDPOINTS)', () => {
  it('refuses loopback, private and link-local addresses unless the operator allows them', async () => {
    const closed = new OutgoingAddressGuard('');
    for (const host of ['127.0.0.1', '10.1.2.3', '192.168.0.7', '169.254.169.254', '[::1]', '::ffff:127.0.0.1', 'localhost', 'fd00::1', '0.0.0.0'])
      // One answer for every address the operator does not allow (the forms say no more).
      await expect(closed.resolve(host)).rejects.toMatchObject({ why: 'not allowed' });
    expect(await closed.resolve('93.184.215.14')).toEqual({ address: '93.184.215.14', family: 4 });

    const open = new OutgoingAddressGuard('127.0.0.1, 10.0.0.0/8, localhost');
    expect((await open.resolve('127.0.0.1')).address).toBe('127.0.0.1');
    expect((await open.resolve('10.200.0.1')).address).toBe('10.200.0.1');
    expect((await open.resolve('localhost')).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    await expect(open.resolve('192.168.0.7')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
    await expect(open.resolve('127.0.0.2')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
    expect(open.allowsPrivateEndpoints()).toBe(true);
    expect(closed.allowsPrivateEndpoints()).toBe(false);
  });

  it('says when a host is not known', async () => {
    await expect(new OutgoingAddressGuard('').resolve('no-such-host.invalid')).rejects.toMatchObject({ why: 'unknown host', host: 'no-such-host.invalid' });
  });
});
