// deploy/Dockerfile and .dockerignore, read without a Docker engine (docker-build.e2e-spec.ts builds the image).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { productNodeFlags } from '@dc/testing';
import { root, SERVICES } from './deploy-contract';
import { execForm, parseDockerfile } from './dockerfile';

describe('deploy/Dockerfile', () => {
  const dockerfile = path.join(root, 'deploy/Dockerfile');
  const stages = existsSync(dockerfile) ? parseDockerfile(dockerfile) : [];
  const runtime = stages[stages.length - 1];
  const dockerignore = existsSync(path.join(root, '.dockerignore'))
    ? readFileSync(path.join(root, '.dockerignore'), 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'))
    : [];
  const of = (stage: { instructions: { keyword: string; args: string }[] } | undefined, keyword: string) =>
    (stage?.instructions ?? []).filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);

  it('exists and builds every stage on Node 24', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toMatch(/^node:24(-[\w.-]+)?$/);
  });

  it('builds with npm ci and npm run build, and ships production dependencies only', () => {
    const build = stages.find((stage) => of(stage, 'RUN').some((run) => run.includes('npm run build')));
    expect(build).toBeDefined();
    expect(of(build, 'RUN').some((run) => /npm ci\b/.test(run))).toBe(true);
    const copies = of(runtime, 'COPY');
    expect(copies).toContainEqual(`--from=${build?.name} /app/dist ./dist`);
    const modules = copies.find((copy) => copy.includes('node_modules'));
    const depsStage = stages.find((stage) => modules?.includes(`--from=${stage.name} `));
    expect(of(depsStage, 'RUN').some((run) => run.includes('npm ci --omit=dev'))).toBe(true);
  });

  it('runs as a non-root user and starts dist/apps/<SERVICE>/src/main.js', () => {
    const user = of(runtime, 'USER').pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const cmd = execForm(of(runtime, 'CMD').pop() ?? '[]');
    const entrypoint = of(runtime, 'ENTRYPOINT');
    expect(entrypoint).toEqual([]);
    expect(cmd.join(' ')).toMatch(/exec node dist\/apps\/\$\{SERVICE\}\/src\/main\.js$/);
    expect(of(runtime, 'ENV').join(' ')).toMatch(/SERVICE=gateway/);
    expect(of(runtime, 'HEALTHCHECK').join(' ')).toContain('"node", "deploy/healthcheck.mjs"');
  });

  it("starts the services with npm start's Node flags (the young generation's size among them)", () => {
    const flags = productNodeFlags();
    expect(flags).toContainEqual(expect.stringMatching(/^--max-semi-space-size=\d+$/));
    const nodeOptions = /NODE_OPTIONS="([^"]*)"/.exec(of(runtime, 'ENV').join(' '))?.[1].split(' ') ?? [];
    expect(nodeOptions).toEqual(expect.arrayContaining(flags));
  });

  it('copies only files that exist and that .dockerignore lets through', () => {
    const sources = stages
      .flatMap((stage) => of(stage, 'COPY'))
      .filter((copy) => !copy.startsWith('--from'))
      .flatMap((copy) =>
        copy
          .replace(/--\S+\s*/g, '')
          .split(' ')
          .slice(0, -1),
      );
    const ignored = (file: string) =>
      dockerignore.some((pattern) => file === pattern.replace(/^\*\*\//, '') || file.startsWith(`${pattern.replace(/^\*\*\//, '')}/`));
    for (const source of sources.filter((item) => item !== '.')) {
      expect({ source, exists: existsSync(path.join(root, source)), ignored: ignored(source) }).toEqual({ source, exists: true, ignored: false });
    }
    expect(dockerignore).toEqual(expect.arrayContaining(['.git', '**/node_modules', 'dist']));
  });

  it('has a main.ts for every service it can start (built to dist/apps/<name>/src/main.js)', () => {
    const missing = Object.keys(SERVICES).filter((name) => !existsSync(path.join(root, 'apps', name, 'src', 'main.ts')));
    expect(missing).toEqual([]);
  });
});
