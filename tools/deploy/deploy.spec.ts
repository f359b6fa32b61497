/**
 * Validates the distributed-mode artefacts without a Docker engine: docker-compose.yml
 * against the compose specification, every manifest under k8s/ against the Kubernetes schemas,
 * and deploy/Dockerfile by reading it (compose.spec.ts, k8s.spec.ts, deploy-dockerfile.spec.ts,
 * healthcheck.spec.ts); the contract they are held to is deploy-contract.ts. Here, the artefacts
 * agree with each other.
 */

import { describeInfra } from '@dc/testing';
import { compose } from './compose-file';
import { SERVICES } from './deploy-contract';
import { type KubeObject, kubectlAvailable, kustomize, named, podSpec } from './k8s-manifests';

describeInfra('compose and k8s agree', kubectlAvailable(), () => {
  it('on the ports and the ConfigMap/Secret split of the environment', () => {
    const base = kustomize('base');
    for (const [name, port] of Object.entries(SERVICES)) {
      const [container] = podSpec(named(base, 'Deployment', name) as KubeObject).containers;
      expect({ name, k8s: container.ports?.[0].containerPort, compose: Number(compose.services[name].environment?.PORT) }).toEqual({
        name,
        k8s: port,
        compose: port,
      });
      const k8sNames = [
        ...(container.env ?? []).map((item) => item.name),
        ...Object.keys((named(base, 'ConfigMap', 'data-catalogue-config')?.data as object) ?? {}),
      ].sort();
      expect({ name, k8s: k8sNames }).toEqual({ name, k8s: Object.keys(compose.services[name].environment ?? {}).sort() });
    }
  });
});
