import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/**
 * Runs .ci/run with stand-ins for the system commands it drives (first on PATH), so each path
 * can be shown without installing or stopping anything on this machine. Every stand-in records
 * its call; `behaviour` says which ones fail.
 */
function runCi(behaviour: Record<string, string>) {
  const bin = mkdtempSync(path.join(tmpdir(), 'dc-ci-stubs-'));
  const calls = path.join(bin, 'calls.log');
  const commands = [
    'dpkg-query',
    'apt-get',
    'pg_isready',
    'pg_ctlcluster',
    'psql',
    'runuser',
    'mariadb-admin',
    'mariadb',
    'mariadb-install-db',
    'install',
    'start-stop-daemon',
    'npm',
  ];
  for (const command of commands) {
    const body = behaviour[command] ?? (command === 'dpkg-query' ? "echo 'install ok installed'" : 'exit 0');
    writeFileSync(path.join(bin, command), `#!/bin/sh\necho "${command} $*" >> "${calls}"\n${body}\n`);
    chmodSync(path.join(bin, command), 0o755);
  }
  try {
    const result = spawnSync('bash', [path.join(root, '.ci/run')], {
      env: { PATH: `${bin}:${process.env.PATH}`, CI_SERVICE_WAIT_SECONDS: '1', HOME: process.env.HOME ?? '/tmp' },
      encoding: 'utf8',
    });
    let recorded: string[] = [];
    try {
      recorded = readFileSync(calls, 'utf8').trim().split('\n');
    } catch {
      // nothing was called
    }
    return { status: result.status, stderr: result.stderr, calls: recorded };
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

describe('.ci/run', () => {
  it('installs the Debian packages the tests need when they are missing', () => {
    const { status, calls } = runCi({ 'dpkg-query': 'exit 1' });
    expect(status).toBe(0);
    expect(calls).toContain('apt-get install -y -qq postgresql mariadb-server kcat chromium podman runc debootstrap podman-compose kubectl');
    expect(calls.slice(-2)).toEqual(['npm ci --no-audit --no-fund', 'npm test']);
  });

  it('leaves running databases alone and runs the tests', () => {
    const { status, calls } = runCi({});
    expect(status).toBe(0);
    expect(calls.filter((call) => /^(apt-get|pg_ctlcluster|start-stop-daemon|install) /.test(call))).toEqual([]);
    expect(calls.slice(-2)).toEqual(['npm ci --no-audit --no-fund', 'npm test']);
  });

  it('stops with a clear message when PostgreSQL does not come up, before any test', () => {
    const { status, stderr, calls } = runCi({ pg_isready: 'exit 2' });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^ci: PostgreSQL (does not answer on 127\.0\.0\.1:5432 after 1s|.*no cluster)/m);
    expect(calls.some((call) => call.startsWith('npm'))).toBe(false);
  });

  it('creates /run/mysqld for mysql before starting MariaDB, and stops with a clear message when it does not come up', () => {
    const { status, stderr, calls } = runCi({ 'mariadb-admin': 'exit 1' });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^ci: MariaDB does not answer on 127\.0\.0\.1:3306 after 1s/m);
    const runDir = calls.indexOf('install -d -o mysql -g mysql -m 0755 /run/mysqld');
    const start = calls.findIndex((call) => call.startsWith('start-stop-daemon --start') && call.includes('/usr/sbin/mariadbd'));
    expect(runDir).toBeGreaterThanOrEqual(0);
    expect(start).toBeGreaterThan(runDir);
    expect(calls.some((call) => call.startsWith('npm'))).toBe(false);
  });
});
