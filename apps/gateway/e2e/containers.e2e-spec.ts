import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  asContainers,
  buildProductImage,
  configurePodman,
  containerToolsReady,
  describeInfra,
  healthCheck,
  isKcatInstalled,
  podman,
  podmanAsync,
  PODMAN_RUN,
  PRODUCT_IMAGE,
  productNodeFlags,
  REPO_ROOT,
} from '@dc/testing';
import { composeTests } from './compose-tests';
import { distributedJobsTests } from './distributed-jobs-suite';
import { distributedModeTests } from './distributed-suite';

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
/** The image's size budget: what it holds today (docs/operations.md, "The image") plus room to grow. */
const IMAGE_BUDGET_MB = 650;
/** How long a container may take to stop on SIGTERM: compose's stop_grace_period and podman's default. */
const GRACE_SECONDS = 10;

const ready = (): true | string => {
  const tools = containerToolsReady();
  if (tools !== true) return tools;
  return isKcatInstalled() || 'kcat is not installed (apt-get install kcat)';
};

/** A command in a fresh container of the image, with its root file system read-only. */
const inImage = (command: string) => podman([...PODMAN_RUN, '--rm', '--read-only', '--network=none', PRODUCT_IMAGE, 'sh', '-c', command]).trim();

/**
 * deploy/Dockerfile built with podman from this checkout (a clean clone in CI) on a local Debian base
 * image, then the distributed suites with every service as a container of that image: the same
 * tests as the seven processes of distributed.e2e-spec.ts, plus what only an image can show.
 */
describeInfra("the product as containers of deploy/Dockerfile's image (podman)", ready(), () => {
  beforeAll(async () => {
    configurePodman();
    mkdirSync(ARTIFACTS, { recursive: true });
    await buildProductImage(path.join(ARTIFACTS, 'image-build.log'));
  }, 45 * 60_000);

  describe('the image', () => {
    it('runs as the node user (uid 1000), not root, as k8s runAsUser pins it', () => {
      const [image] = JSON.parse(podman(['image', 'inspect', PRODUCT_IMAGE]));
      expect(image.Config.User).toBe('node');
      expect(inImage('id -u')).toBe('1000');
      // Its own code is not its to change.
      expect(inImage('touch /app/dist/x 2>&1 || echo refused')).toContain('refused');
    });

    it("starts a service by SERVICE with npm start's Node flags, and checks its health with deploy/healthcheck.mjs", () => {
      const [{ Config, Healthcheck }] = JSON.parse(podman(['image', 'inspect', PRODUCT_IMAGE]));
      expect(Config.Cmd).toEqual(['sh', '-c', `exec node ${productNodeFlags().join(' ')} dist/apps/\${SERVICE}/src/main.js`]);
      expect(Config.Env).toContain('SERVICE=gateway');
      expect(Healthcheck?.Test).toEqual(['CMD', 'node', 'deploy/healthcheck.mjs']);
    });

    it('holds no package the lockfile marks as a dev dependency, and no test code', () => {
      const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
      const devOnly = new Set(Object.keys(lock.packages).filter((key) => lock.packages[key].dev));
      const installed = inImage(
        "cd /app && find node_modules -name package.json -not -path '*/node_modules/*/node_modules/*/node_modules/*' | sed 's|/package.json$||'",
      )
        .split('\n')
        .filter(Boolean);
      expect(installed.length).toBeGreaterThan(100);
      expect(installed.filter((folder) => devOnly.has(folder))).toEqual([]);
      expect(inImage("find /app/dist \\( -name '*spec.js*' -o -name '*.fixture.js*' -o -name testing \\) -print")).toBe('');
      expect(inImage('ls /app/dist/apps')).toBe(['catalogue', 'gateway', 'identity', 'jobs', 'relations', 'requests', 'search', 'web'].join('\n'));
    });

    it(`stays within ${IMAGE_BUDGET_MB} MB, and reports what it holds`, () => {
      const [image] = JSON.parse(podman(['image', 'inspect', PRODUCT_IMAGE]));
      const megabytes = Math.round(image.Size / 1e6);
      const layers = podman(['history', '--format', '{{.Size}}\t{{.CreatedBy}}', PRODUCT_IMAGE]);
      const modules = inImage('cd /app/node_modules && du -sk * .[!.]* 2>/dev/null | sort -rn | head -15');
      const report = `image ${PRODUCT_IMAGE}: ${megabytes} MB\n\nlayers (newest first):\n${layers}\nlargest in /app/node_modules (KB):\n${modules}\n`;
      writeFileSync(path.join(ARTIFACTS, 'image-report.txt'), report);
      console.log(report);
      expect(megabytes).toBeLessThanOrEqual(IMAGE_BUDGET_MB);
    });
  });

  const launch = asContainers(PRODUCT_IMAGE);
  describe('distributed mode, seven containers (host network, read-only root file system)', () =>
    distributedModeTests(launch, (product) => {
      it('passes the HEALTHCHECK of the image in each of the seven containers', async () => {
        const [{ Healthcheck }] = JSON.parse(podman(['image', 'inspect', PRODUCT_IMAGE]));
        const results: Array<[string, string]> = [];
        for (const running of product().processes) results.push([running.name, await healthCheck(running.container!, Healthcheck.Retries)]);
        expect(results).toEqual(product().processes.map((running) => [running.name, 'healthy']));
      }, 120_000);

      // podman stop sends SIGTERM, then SIGKILL once the grace period is over: exit code 0 means the
      // service shut itself down in time (137 would be the kill).
      it(`stops each container on SIGTERM within ${GRACE_SECONDS} s, with exit code 0`, async () => {
        const stopped: Array<[string, number | null]> = [];
        for (const running of product().processes) {
          await podmanAsync(['stop', '--time', String(GRACE_SECONDS), running.container!]);
          stopped.push([running.name, await running.exited]);
        }
        expect(stopped).toEqual(product().processes.map((running) => [running.name, 0]));
      }, 180_000);
    }));
  describe('merge jobs, two job worker containers', () => distributedJobsTests(launch));
  composeTests();
});
