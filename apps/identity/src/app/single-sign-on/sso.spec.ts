import { emailDomainAllowed, normaliseDomains, usernameBase } from './sso';
import { OutgoingAddressRefusedError } from '@dc/platform';
import { ProviderAddressGuard } from './provider-address-guard';

describe('single sign-on rules', () => {
  it('allows an email only in a listed domain, exactly and ignoring case', () => {
    expect(emailDomainAllowed('ada@Engines.Example', ['engines.example'])).toBe(true);
    expect(emailDomainAllowed('ada@lab.engines.example', ['engines.example'])).toBe(false);
    expect(emailDomainAllowed('ada@engines.example.evil', ['engines.example'])).toBe(false);
    expect(emailDomainAllowed('engines.example', ['engines.example'])).toBe(false);
    expect(emailDomainAllowed('a@b@engines.example', ['engines.example'])).toBe(true);
  });

  it('normalises the domains an admin typed', () => {
    expect(normaliseDomains([' @Engines.Example', 'engines.example', '', 'lab.example'])).toEqual(['engines.example', 'lab.example']);
  });

  it('derives a username from the preferred username or the email', () => {
    expect(usernameBase({ email: 'ada.l@engines.example', preferredUsername: 'ada' })).toBe('ada');
    expect(usernameBase({ email: 'ada.l@engines.example', preferredUsername: 'ada@engines.example' })).toBe('ada.l');
    expect(usernameBase({ email: 'ünïcode+tag@x.example', preferredUsername: undefined })).toBe('ncodetag');
    expect(usernameBase({ email: '@x', preferredUsername: undefined })).toBe('user');
  });
});

describe('ProviderAddressGuard', () => {
  it('refuses loopback and private addresses unless the operator listed them', async () => {
    const closed = new ProviderAddressGuard({ ALLOWED_PRIVATE_ENDPOINTS: '' });
    await expect(closed.resolve('127.0.0.1')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
    await expect(closed.resolve('10.1.2.3')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
    await expect(closed.resolve('[::ffff:192.168.1.1]')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
    expect(closed.allowsPrivateEndpoints()).toBe(false);
    await expect(closed.resolve('93.184.215.14')).resolves.toEqual({ address: '93.184.215.14', family: 4 });

    const open = new ProviderAddressGuard({ ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1, 10.0.0.0/8' });
    await expect(open.resolve('127.0.0.1')).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(open.resolve('10.1.2.3')).resolves.toEqual({ address: '10.1.2.3', family: 4 });
    await expect(open.resolve('192.168.1.1')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
    expect(open.allowsPrivateEndpoints()).toBe(true);
  });

  it('fetches through the checked address and refuses before connecting', async () => {
    const closed = new ProviderAddressGuard({ ALLOWED_PRIVATE_ENDPOINTS: '' });
    await expect(closed.fetch('http://127.0.0.1:9/.well-known/openid-configuration')).rejects.toBeInstanceOf(OutgoingAddressRefusedError);
  });
});
