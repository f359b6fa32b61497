import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeInfra } from '@dc/testing';
import { parseDockerfile } from './dockerfile';

const root = path.resolve(__dirname, '../..');
const RUN_IT = process.env.CI === 'true' || process.env.DOCKER_BUILD_CHECK === '1';

/** The files a clean clone has: what git tracks (the Dockerfile's `COPY . .` of a checkout). */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && existsSync(path.join(root, file)));
}

/**
 * What deploy/Dockerfile's build stage does, without a Docker engine: its RUN commands (`npm ci`,
 * `npm run build`), in order, in a copy of the tracked files, so a lockfile `npm ci` refuses or a
 * build that needs an untracked file fails here. Takes minutes (a full install), so it runs in CI
 * (CI=true) or with DOCKER_BUILD_CHECK=1; packages come from npm's cache when it has them.
 */
describeInfra(
  'deploy/Dockerfile build stage in a clean copy of the repository',
  RUN_IT || 'runs in CI (CI=true) or with DOCKER_BUILD_CHECK=1: a full npm ci and build take minutes',
  () => {
    let workDir: string;
    beforeAll(() => {
      workDir = mkdtempSync(path.join(tmpdir(), 'dc-docker-build-'));
    });
    afterAll(() => {
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    it(
      'installs with npm ci and builds with npm run build, as the image does',
      () => {
        const build = parseDockerfile(path.join(root, 'deploy/Dockerfile')).find((stage) => stage.name === 'build');
        if (!build) throw new Error('deploy/Dockerfile has no stage named build');
        const commands = build.instructions.filter((instruction) => instruction.keyword === 'RUN').map((instruction) => instruction.args);
        expect(commands).toEqual([expect.stringMatching(/^npm ci\b/), 'npm run build']);

        for (const file of trackedFiles()) {
          mkdirSync(path.dirname(path.join(workDir, file)), { recursive: true });
          cpSync(path.join(root, file), path.join(workDir, file));
        }
        // npm scripts run on the project's own Node 24 (node_modules/.bin/node, from the node package).
        const env = { ...process.env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
        for (const command of commands) {
          const [program, ...args] = command.split(' ');
          const result = spawnSync(program, args, { cwd: workDir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
          if (result.status !== 0) throw new Error(`${command} failed (exit ${result.status}):\n${(result.stderr || result.stdout).slice(-4000)}`);
        }
        for (const built of ['dist/apps/gateway/src/main.js', 'dist/apps/identity/src/main.js', 'dist/apps/web/index.html'])
          expect({ built, exists: existsSync(path.join(workDir, built)) }).toEqual({ built, exists: true });
      },
      30 * 60_000,
    );
  },
);
