import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createLogger, loadConfig, PlatformModule, Public } from '../index';
import { storableJson, unstorableTextIn, unstorableTextMessage } from './storable-text';

describe('unstorableTextMessage: text PostgreSQL cannot store', () => {
  it.each([
    ['a\u0000b', 'Null characters are not allowed.'],
    ['\ud800', 'Surrogate characters are not allowed: U+D800.'],
    ['x\udfffy', 'Surrogate characters are not allowed: U+DFFF.'],
    ['\udc00\ud800', 'Surrogate characters are not allowed: U+DC00.'],
    ['ok 😀 \ud83d', 'Surrogate characters are not allowed: U+D83D.'],
  ])('%j: %s', (text, message) => expect(unstorableTextMessage(text)).toBe(message));

  it.each(['', 'plain', '😀 𝔡 日本語', '\u0001\u001f tabs\tand\nnewlines', '\ufffd'])('%j is fine', (text) => expect(unstorableTextMessage(text)).toBeNull());

  it('finds the first bad text in nested values and keys, naming the top-level field', () => {
    expect(unstorableTextIn({ a: 'ok', b: [{ c: ['x', 'y\u0000'] }] })).toEqual({ field: 'b', message: 'Null characters are not allowed.' });
    expect(unstorableTextIn({ fields: { ['k\ud800']: 1 } })).toEqual({ field: 'fields', message: 'Surrogate characters are not allowed: U+D800.' });
    expect(unstorableTextIn({ ['to\u0000p']: 1 })).toEqual({ field: 'to\u0000p', message: 'Null characters are not allowed.' });
    expect(unstorableTextIn(['\u0000'])).toEqual({ field: 'non_field_errors', message: 'Null characters are not allowed.' });
    expect(unstorableTextIn({ a: 1, b: null, c: true, d: [1, 2, { e: 'fine' }] })).toBeNull();
  });

  it('walks very deep values without overflowing the stack', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextIn({ deep })).toEqual({ field: 'deep', message: 'Null characters are not allowed.' });
  });
});

@Controller('api/echo')
class EchoController {
  @Public()
  @Post(':id')
  post(@Param('id') id: string, @Query() query: unknown, @Body() body: unknown) {
    return { id, query, body };
  }

  @Public()
  @Get()
  get(@Query() query: unknown) {
    return { query };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

/** The platform refuses such text on every route before any handler sees it. */
describe('platform: every route refuses text PostgreSQL cannot store', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    const config = { ...loadConfig({}), JWT_SECRET: 'x'.repeat(40) };
    const moduleRef = await Test.createTestingModule({
      imports: [PlatformModule.forRoot({ service: 'test', config, logger: createLogger({ service: 'test', level: 'silent' }) }), EchoModule],
    }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it.each([
    ['a JSON field', (r: request.Agent) => r.post('/api/echo/1').send({ name: 'a\u0000' }), { name: ['Null characters are not allowed.'] }],
    [
      'a JSON lone surrogate',
      (r: request.Agent) => r.post('/api/echo/1').set('content-type', 'application/json').send('{"note": "x\\ud800"}'),
      { note: ['Surrogate characters are not allowed: U+D800.'] },
    ],
    ['a form field', (r: request.Agent) => r.post('/api/echo/1').type('form').send('description=%00'), { description: ['Null characters are not allowed.'] }],
    ['a query parameter', (r: request.Agent) => r.get('/api/echo?query=%00'), { query: ['Null characters are not allowed.'] }],
    ['a repeated query parameter', (r: request.Agent) => r.get('/api/echo?page=1&page=%00'), { page: ['Null characters are not allowed.'] }],
    ['a path parameter', (r: request.Agent) => r.post('/api/echo/%00').send({}), { id: ['Null characters are not allowed.'] }],
  ])('%s: 400 with the field error', async (_what, call, body) => {
    const response = await call(request.agent(app.getHttpServer()));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
  });

  it('lets well-formed text through untouched', async () => {
    const response = await request(app.getHttpServer())
      .post('/api/echo/7?q=%F0%9F%98%80')
      .send({ name: '😀 日本語', list: ['a', { b: 'c' }] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: '7', query: { q: '😀' }, body: { name: '😀 日本語', list: ['a', { b: 'c' }] } });
  });
});

describe('storableJson: extracted metadata made storable', () => {
  it('replaces NUL and lone surrogates with U+FFFD in values and keys, keeping pairs and everything else', () => {
    const meta = { NAME: 'a\u0000b', STATS: { '0': { VALS: ['x\ud800', '😀', 7, null, true] } }, SEGMENTS: { ['P\u0000D']: 1 }, OK: 'plain' };
    expect(storableJson(meta)).toEqual({
      NAME: 'a\ufffdb',
      STATS: { '0': { VALS: ['x\ufffd', '😀', 7, null, true] } },
      SEGMENTS: { ['P\ufffdD']: 1 },
      OK: 'plain',
    });
    expect(unstorableTextIn(storableJson(meta))).toBeNull();
  });
});
