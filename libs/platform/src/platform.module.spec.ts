import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Test, TestingModule } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { Writable } from 'node:stream';
import { z } from 'zod';
import {
  AuthUser,
  correlationIdMiddleware,
  createLogger,
  CurrentUser,
  FieldValidationError,
  HealthRegistry,
  loadConfig,
  PlatformModule,
  Public,
  SchemaPipe,
  TokenChecks,
  TokenClaims,
} from './index';

@Controller('api/things')
class ThingsController {
  @Public()
  @Get('open')
  open(@CurrentUser() user: AuthUser | null) {
    return { user: user?.username ?? null };
  }

  @Get('mine')
  mine(@CurrentUser() user: AuthUser) {
    return { id: user.id, organisationId: user.organisationId, clientType: user.clientType };
  }

  @Public()
  @Post('validate')
  validate(@Body(new SchemaPipe(z.object({ name: z.string().min(1, 'A name is required.') }))) body: { name: string }) {
    return body;
  }

  @Public()
  @Get('taken')
  taken() {
    throw new FieldValidationError({ username: ['A user with that username already exists.'] });
  }

  @Public()
  @Get('boom')
  boom() {
    throw new Error('database password is hunter2');
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('platform: auth, errors, health, correlation ids', () => {
  let app: NestExpressApplication;
  let jwt: JwtService;
  let moduleRef: TestingModule;
  const logs: string[] = [];
  const config = { ...loadConfig({}), JWT_SECRET: 'x'.repeat(40) };
  const claims: TokenClaims = { sub: 'u-1', username: 'ada', org: 'o-1', ct: 'STANDARD', perms: [], groups: [1, 2, 3], pv: 1 };

  beforeAll(async () => {
    const destination = new Writable({ write: (chunk, _enc, done) => (logs.push(String(chunk)), done()) });
    const logger = createLogger({ service: 'test', destination });
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ service: 'test', config, logger }), ThingsModule] }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    app.use(correlationIdMiddleware);
    moduleRef.get(HealthRegistry).register('always-down', async () => {
      throw new Error('nope');
    });
    await app.init();
    jwt = moduleRef.get(JwtService);
  });
  afterAll(() => app.close());

  it('refuses a protected route without a token, in the spec shape', async () => {
    const response = await request(app.getHttpServer()).get('/api/things/mine');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid or expired token. Please log in again.' });
  });

  it('accepts `Authorization: JWT <token>` and exposes the caller', async () => {
    const token = await jwt.signAsync(claims);
    const response = await request(app.getHttpServer()).get('/api/things/mine/').set('Authorization', `JWT ${token}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 'u-1', organisationId: 'o-1', clientType: 'STANDARD' });
  });

  it('rejects tokens signed with another key, expired tokens and other schemes', async () => {
    const forged = await new JwtService({ secret: 'y'.repeat(40) }).signAsync(claims);
    const expired = await jwt.signAsync(claims, { expiresIn: -10 });
    const good = await jwt.signAsync(claims);
    for (const header of [`JWT ${forged}`, `JWT ${expired}`, `Bearer ${good}`]) {
      expect((await request(app.getHttpServer()).get('/api/things/mine').set('Authorization', header)).status).toBe(401);
    }
  });

  it('refuses a validly signed token that a registered check says is no longer current', async () => {
    moduleRef.get(TokenChecks).register(async (user) => !(user.id === 'u-2' && user.passwordVersion < 2));
    const stale = await jwt.signAsync({ ...claims, sub: 'u-2' });
    const current = await jwt.signAsync({ ...claims, sub: 'u-2', pv: 2 });
    expect((await request(app.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${stale}`)).status).toBe(401);
    expect((await request(app.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${current}`)).status).toBe(200);
  });

  it('lets anonymous callers reach public routes, and identifies signed-in ones there', async () => {
    expect((await request(app.getHttpServer()).get('/api/things/open')).body).toEqual({ user: null });
    const token = await jwt.signAsync(claims);
    expect((await request(app.getHttpServer()).get('/api/things/open').set('Authorization', `JWT ${token}`)).body).toEqual({ user: 'ada' });
  });

  it('answers validation failures per field, and domain errors in their own shape', async () => {
    const invalid = await request(app.getHttpServer()).post('/api/things/validate').send({ name: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ name: ['A name is required.'] });
    const taken = await request(app.getHttpServer()).get('/api/things/taken');
    expect(taken.body).toEqual({ username: ['A user with that username already exists.'] });
  });

  it('hides unexpected errors behind the generic message and logs them', async () => {
    const response = await request(app.getHttpServer()).get('/api/things/boom').set('x-correlation-id', 'corr-boom');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ detail: 'An error occured, please try again.' });
    expect(JSON.stringify(response.body)).not.toContain('hunter2');
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'unexpected error');
    expect(line).toMatchObject({ service: 'test', correlationId: 'corr-boom', level: 50 });
  });

  it('answers unknown routes with 404 in the spec shape', async () => {
    const response = await request(app.getHttpServer()).get('/api/nothing');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('echoes a caller correlation id, or makes one', async () => {
    const given = await request(app.getHttpServer()).get('/api/things/open').set('x-correlation-id', 'abc-123');
    expect(given.headers['x-correlation-id']).toBe('abc-123');
    const made = await request(app.getHttpServer()).get('/api/things/open').set('x-correlation-id', 'bad id with spaces');
    expect(made.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps each app to its own secret and token checks when two run in one process', async () => {
    const otherRef = await Test.createTestingModule({
      imports: [
        PlatformModule.forRoot({
          service: 'other',
          config: { ...config, JWT_SECRET: 'y'.repeat(40) },
          logger: createLogger({ service: 'other', destination: new Writable({ write: (_c, _e, done) => done() }) }),
        }),
        ThingsModule,
      ],
    }).compile();
    const other = otherRef.createNestApplication<NestExpressApplication>({ logger: false });
    otherRef.get(TokenChecks).register(async (user) => user.username !== 'ada');
    await other.init();
    try {
      const ours = await jwt.signAsync(claims);
      const theirs = await otherRef.get(JwtService).signAsync({ ...claims, username: 'grace' });
      // Each app takes only tokens signed with its own secret...
      expect((await request(app.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${ours}`)).status).toBe(200);
      expect((await request(app.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${theirs}`)).status).toBe(401);
      expect((await request(other.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${theirs}`)).status).toBe(200);
      // ...and runs only its own checks: the other app refuses ada, this one still takes her.
      const adaThere = await otherRef.get(JwtService).signAsync(claims);
      expect((await request(other.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${adaThere}`)).status).toBe(401);
      expect((await request(app.getHttpServer()).get('/api/things/mine').set('Authorization', `JWT ${ours}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('reports liveness, and readiness with each check', async () => {
    expect((await request(app.getHttpServer()).get('/health/live')).body).toEqual({ status: 'ok' });
    const ready = await request(app.getHttpServer()).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toEqual({ 'always-down': 'down: nope' });
  });
});
