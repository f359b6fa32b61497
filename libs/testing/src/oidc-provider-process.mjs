// A real OpenID Provider (oidc-provider, a certified implementation) for tests, in a process of its
// own so that its clock can be set apart from the product's (clockOffsetSeconds: ID tokens issued in
// the past are expired when they arrive). Started by oidc-provider.ts; prints "listening <port>".
// Accounts are read from a JSON file at every sign-in ({ "<accountId>": { email, given_name, ... } }),
// so a test can change a person's claims between sign-ins.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2]);
if (options.clockOffsetSeconds) {
  const realNow = Date.now;
  Date.now = () => realNow() + options.clockOffsetSeconds * 1000;
}

const server = http.createServer();
await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
const { port } = server.address();
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: options.clients.map((client) => ({
    client_id: client.client_id,
    client_secret: client.client_secret,
    redirect_uris: client.redirect_uris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  })),
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name', 'preferred_username'] },
  cookies: { keys: ['oidc-test-provider-cookie-key'] },
  ttl: { IdToken: options.idTokenTtlSeconds ?? 3600 },
  async findAccount(_ctx, id) {
    const accounts = JSON.parse(readFileSync(options.accountsFile, 'utf8'));
    const claims = accounts[id];
    if (!claims) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
  },
  // Consent is given at once: only the dev login form (any password) is shown.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});
provider.on('server_error', (_ctx, error) => process.stderr.write(`server_error ${error.stack}\n`));
server.on('request', provider.callback());
process.stdout.write(`listening ${port}\n`);
