import type { IContainer } from 'kubernetes-models/v1';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDashboardConfig } from '@partner/dashboard';
import { type Deployment, findKubectl, type K8sObject, named, ofKind, render, schemaProblems } from './k8s-manifests.js';

// The dashboard's own kustomization (infra/k8s/dashboard): valid, locked down like every service, its
// configuration complete, and let in by the ingress controller and out to console and DNS only.

const kubectl = findKubectl();
let objects: K8sObject[];
let deployment: Deployment;
const container = (): IContainer => deployment.spec!.template.spec!.containers[0]!;

beforeAll(() => {
  if (!kubectl) return;
  objects = render(kubectl, 'infra/k8s/dashboard');
  deployment = named<Deployment>(objects, 'Deployment', 'dashboard');
});

describe.skipIf(!kubectl)('the dashboard, rendered by kubectl kustomize', () => {
  it('holds only objects valid against the Kubernetes schemas, in the namespace `dashboard`, and no Secret', async () => {
    expect(await schemaProblems(objects)).toEqual([]);
    expect(ofKind(objects, 'Secret')).toEqual([]);
    for (const object of objects.filter((o) => o.kind !== 'Namespace')) expect(object.metadata.namespace, object.kind).toBe('dashboard');
    // console's NetworkPolicy lets in pods of this label in this namespace, and no others.
    expect(deployment.spec!.template.metadata!.labels).toMatchObject({ 'app.kubernetes.io/name': 'dashboard' });
  });

  it('runs as non-root with a read-only root filesystem, no privilege escalation and no capabilities', () => {
    const pod = deployment.spec!.template.spec!;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(container().securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(Object.keys(container().resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
  });

  it('gives the dashboard a configuration that loads, on the port it is probed and served on', () => {
    const configMap = ofKind<K8sObject & { data: Record<string, string> }>(objects, 'ConfigMap')[0]!;
    expect(container().envFrom).toEqual([{ configMapRef: { name: configMap.metadata.name } }]);
    const config = loadDashboardConfig(configMap.data);
    expect(config.consoleUrl).toBe('http://console.partner.svc.cluster.local:8084');
    const port = container().ports!.find((p) => p.name === 'http')!.containerPort;
    expect(config.port).toBe(port);
    expect(container().readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container().livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(named<K8sObject & { spec: { ports: unknown[] } }>(objects, 'Service', 'dashboard').spec.ports).toEqual([
      { name: 'http', port, targetPort: 'http' },
    ]);
  });

  it('is reached from the ingress controller only, and reaches console and DNS only', () => {
    const policy = named<INetworkPolicy & K8sObject>(objects, 'NetworkPolicy', 'dashboard').spec!;
    expect(policy.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
        ports: [{ protocol: 'TCP', port: 8085 }],
      },
    ]);
    expect(policy.egress!.map((rule) => [rule.to, rule.ports])).toEqual([
      [
        [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'partner' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'console' } },
          },
        ],
        [{ protocol: 'TCP', port: 8084 }],
      ],
      [
        [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ],
        [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      ],
    ]);
  });
});
