// The kafka-topics Job of k8s/ creates exactly the topics the services publish to, idempotently,
// as docker-compose.yml's kafka-topics service does; its shell script is run here against a stub
// of kafka-topics.sh that records each call.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allEventContracts, Topic } from '@dc/contracts';
import { describeInfra } from '@dc/testing';
import { compose } from './compose-file';
import { type KubeObject, KUSTOMIZATIONS, kubectlAvailable, kustomize, named, podSpec } from './k8s-manifests';

const KAFKA_TOPICS_SH = '/opt/kafka/bin/kafka-topics.sh';

/** Runs the Job's script with a stub in place of kafka-topics.sh; returns the arguments of each call. */
function runScript(script: string, env: Record<string, string>): string[][] {
  const dir = mkdtempSync(path.join(tmpdir(), 'dc-kafka-topics-'));
  try {
    const stub = path.join(dir, 'kafka-topics.sh');
    writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${dir}/calls'\n`);
    chmodSync(stub, 0o755);
    expect(script).toContain(KAFKA_TOPICS_SH);
    execFileSync('/bin/sh', ['-c', script.replaceAll(KAFKA_TOPICS_SH, stub)], { env: { PATH: process.env.PATH ?? '', ...env } });
    return readFileSync(path.join(dir, 'calls'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const flag = (call: string[], name: string) => call[call.indexOf(name) + 1];

describeInfra('k8s/ kafka-topics Job', kubectlAvailable(), () => {
  const rendered: Record<string, KubeObject[]> = {};
  beforeAll(() => {
    for (const dir of KUSTOMIZATIONS) rendered[dir] = kustomize(dir);
  });

  it('creates, once each and only if missing, exactly the topics the services publish to, in the brokers the services use', () => {
    const published = [...new Set(allEventContracts().map((contract) => contract.topic))].sort();
    expect(published).toEqual(Object.values(Topic).sort());
    for (const dir of KUSTOMIZATIONS) {
      const [container] = podSpec(named(rendered[dir], 'Job', 'kafka-topics') as KubeObject).containers;
      const config = named(rendered[dir], 'ConfigMap', 'data-catalogue-config')?.data as Record<string, string>;
      // Resolve the env as the kubelet would: plain values, and the ConfigMap key for the brokers.
      const env = Object.fromEntries((container.env ?? []).map((item) => [item.name, item.value ?? config[item.valueFrom?.configMapKeyRef?.key ?? ''] ?? '']));
      expect({ dir, brokers: env.KAFKA_BROKERS }).toEqual({ dir, brokers: config.KAFKA_BROKERS });
      const calls = runScript((container.args ?? []).join('\n'), env);
      expect({ dir, created: calls.map((call) => flag(call, '--topic')).sort() }).toEqual({ dir, created: published });
      for (const call of calls) {
        expect({ dir, call: call.join(' ') }).toEqual({ dir, call: expect.stringContaining('--create --if-not-exists') });
        expect({ dir, brokers: flag(call, '--bootstrap-server'), partitions: flag(call, '--partitions') }).toEqual({
          dir,
          brokers: config.KAFKA_BROKERS,
          partitions: '3',
        });
      }
    }
  });

  it('uses the image and the topic list of the kafka-topics service of docker-compose.yml', () => {
    const service = compose.services['kafka-topics'];
    const [container] = podSpec(named(rendered.base, 'Job', 'kafka-topics') as KubeObject).containers;
    expect(container.image).toBe(service.image);
    const topics = (text: unknown) => String(text).split(/\s+/).sort();
    expect(topics(container.env?.find((item) => item.name === 'TOPICS')?.value)).toEqual(topics(service.environment?.TOPICS));
    expect(container.command).toEqual(['/bin/sh', '-c']);
  });
});
