import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { serveWebApp } from './web-app';

describe('serveWebApp', () => {
  let dir: string;
  let app: express.Express;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'web-app-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>web app</title>');
    writeFileSync(path.join(dir, 'app.js'), 'console.log(1)');
    // Files a build could hold at the API's paths: they must never answer in the API's place.
    for (const route of ['api/records', 'api-token-auth', 'health/ready']) {
      mkdirSync(path.join(dir, route), { recursive: true });
      writeFileSync(path.join(dir, route, 'index.html'), 'a file of the build');
    }
    app = express();
    expect(serveWebApp(app, dir)).toBe(true);
    app.use((req, res) => res.json({ routedTo: 'api', path: req.path }));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the client and its files', async () => {
    const page = await request(app).get('/').expect(200);
    expect(page.text).toContain('<title>web app</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    await request(app).get('/app.js').expect(200, 'console.log(1)');
  });

  it.each(['/api/records/', '/api/records', '/API/records/', '/api-token-auth/', '/health/ready'])(
    'passes %s on to the routes without looking for a file',
    async (route) => {
      const answer = await request(app).get(route).expect(200);
      expect(answer.body).toEqual({ routedTo: 'api', path: route });
    },
  );

  it('says when there is no built client', () => {
    expect(serveWebApp(express(), path.join(dir, 'missing'))).toBe(false);
  });
});
