import { BlockList, isIPv4 } from 'node:net';
import type { INetworkPolicyPeer, INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, KUSTOMIZATIONS, ofKind, podSpec, render, type Deployment, type Job, type NetworkPolicy } from './k8s-manifests.js';

// The NetworkPolicies evaluated as a cluster would: a connection passes when the source's egress and the
// destination's ingress both allow it (a side no policy selects is not isolated). Every pair of the
// endpoints below, on each port its destination listens on, gives the flows allowed; they must be exactly
// the architecture's (docs/architecture.md, docs/deployment.md).

type LabelSelector = NonNullable<INetworkPolicyPeer['podSelector']>;

const kubectl = findKubectl();
if (!kubectl) console.warn('kubectl is not on PATH: the NetworkPolicy tests are skipped (CI has it)');

interface Port {
  port: number;
  protocol: 'TCP' | 'UDP';
}

/** A pod (namespace and labels: selectors see it) or an address outside the cluster (ipBlocks see it). */
interface Endpoint {
  name: string;
  pod?: { namespace: string; labels: Record<string, string> };
  ip?: string;
  listens: Port[];
}

const tcp = (port: number): Port => ({ port, protocol: 'TCP' });

/** Around the platform: who calls it, what it calls, and addresses it must never reach. */
const SURROUNDINGS: Endpoint[] = [
  { name: 'ingress-nginx', pod: { namespace: 'ingress-nginx', labels: { 'app.kubernetes.io/name': 'ingress-nginx' } }, listens: [] },
  { name: 'dashboard', pod: { namespace: 'dashboard', labels: { 'app.kubernetes.io/name': 'dashboard' } }, listens: [] },
  { name: 'prometheus', pod: { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } }, listens: [] },
  // Another pod of the monitoring namespace: only Prometheus itself scrapes.
  { name: 'grafana', pod: { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'grafana' } }, listens: [tcp(4318)] },
  {
    name: 'otel-collector',
    pod: { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'opentelemetry-collector' } },
    listens: [tcp(4318), tcp(4317)],
  },
  // Another team's pods, one of them even named like ours, and one of ours in the platform's namespace.
  { name: 'other-gateway', pod: { namespace: 'shop', labels: { 'app.kubernetes.io/name': 'gateway' } }, listens: [tcp(8080)] },
  { name: 'dashboard-in-partner', pod: { namespace: 'partner', labels: { 'app.kubernetes.io/name': 'dashboard' } }, listens: [] },
  {
    name: 'kube-dns',
    pod: { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
    listens: [{ port: 53, protocol: 'UDP' }, tcp(53)],
  },
  { name: 'postgres', ip: '10.20.0.5', listens: [tcp(5432)] },
  { name: 'redis', ip: '10.20.1.5', listens: [tcp(6379)] },
  { name: 'private-neighbour', ip: '10.20.2.7', listens: [tcp(5432), tcp(6379), tcp(443)] },
  { name: 'kube-apiserver', ip: '10.96.0.1', listens: [tcp(443)] },
  { name: 'office-network', ip: '192.168.1.10', listens: [tcp(443)] },
  { name: 'vpc-peer', ip: '172.20.0.10', listens: [tcp(443)] },
  { name: 'cloud-metadata', ip: '169.254.169.254', listens: [tcp(80), tcp(443)] },
  { name: 'pod-identity-agent', ip: '169.254.170.23', listens: [tcp(80)] },
  { name: 'link-local-neighbour', ip: '169.254.10.1', listens: [tcp(80), tcp(443)] },
  { name: 'carrier-nat', ip: '100.64.0.1', listens: [tcp(443)] },
  // A webhook receiver, the model provider, the object store: all on the internet.
  { name: 'internet', ip: '203.0.113.10', listens: [tcp(443), tcp(8443), tcp(5432)] },
];

const SERVICES = ['gateway', 'catalog', 'webhooks', 'concierge', 'console'] as const;
const flow = (from: string, to: string, port: number, protocol = 'TCP') => `${from} -> ${to}:${port}/${protocol}`;

const EXPECTED = [
  flow('ingress-nginx', 'gateway', 8080),
  flow('gateway', 'catalog', 8081),
  flow('gateway', 'webhooks', 8082),
  flow('gateway', 'concierge', 8083),
  flow('dashboard', 'console', 8084),
  flow('console', 'webhooks', 8082),
  ...SERVICES.map((service) => flow('prometheus', service, 9090)),
  // Spans over OTLP/HTTP to the collector, not to any pod of its namespace.
  ...SERVICES.map((service) => flow(service, 'otel-collector', 4318)),
  ...[...SERVICES, 'migrate'].flatMap((pod) => [flow(pod, 'kube-dns', 53, 'UDP'), flow(pod, 'kube-dns', 53), flow(pod, 'postgres', 5432)]),
  ...SERVICES.map((service) => flow(service, 'redis', 6379)),
  // Receivers on any port; the model provider and the object store over HTTPS.
  flow('webhooks', 'internet', 443),
  flow('webhooks', 'internet', 8443),
  flow('webhooks', 'internet', 5432),
  flow('concierge', 'internet', 443),
  flow('catalog', 'internet', 443),
  flow('console', 'internet', 443),
  // The object store's services read credentials from the pod's role; no one else reaches them.
  ...['catalog', 'console'].flatMap((pod) => [flow(pod, 'cloud-metadata', 80), flow(pod, 'pod-identity-agent', 80)]),
].sort();

function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  const matchLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return (
    matchLabels &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      switch (operator) {
        case 'In':
          return key in labels && values.includes(labels[key]!);
        case 'NotIn':
          return !(key in labels && values.includes(labels[key]!));
        case 'Exists':
          return key in labels;
        case 'DoesNotExist':
          return !(key in labels);
        default:
          throw new Error(`unknown selector operator ${operator}`);
      }
    })
  );
}

function inBlock(ip: string, cidr: string): boolean {
  const [network, prefix] = cidr.split('/');
  const block = new BlockList();
  block.addSubnet(network!, Number(prefix), isIPv4(network!) ? 'ipv4' : 'ipv6');
  return block.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
}

/** Whether one `from`/`to` entry of a policy in `namespace` covers the endpoint. */
function peerMatches(peer: INetworkPolicyPeer, namespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock)
    return (
      !!endpoint.ip && inBlock(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inBlock(endpoint.ip!, cidr))
    );
  const pod = endpoint.pod;
  if (!pod) return false;
  if (peer.namespaceSelector)
    return selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': pod.namespace }) && selects(peer.podSelector, pod.labels);
  return pod.namespace === namespace && selects(peer.podSelector, pod.labels);
}

function portMatches(ports: INetworkPolicyPort[] | undefined, port: Port): boolean {
  if (!ports) return true;
  return ports.some((candidate) => {
    if (typeof candidate.port === 'string') throw new Error('named ports in NetworkPolicies are not evaluated here');
    return (candidate.protocol ?? 'TCP') === port.protocol && (candidate.port === undefined || candidate.port === port.port);
  });
}

/** Whether the policies let `subject` send (egress) to, or receive (ingress) from, `other` on `port`. */
function allows(policies: NetworkPolicy[], direction: 'Ingress' | 'Egress', subject: Endpoint, other: Endpoint, port: Port): boolean {
  const pod = subject.pod;
  if (!pod) return true;
  const isolating = policies.filter(
    (policy) =>
      policy.metadata.namespace === pod.namespace &&
      selects(policy.spec?.podSelector, pod.labels) &&
      (policy.spec?.policyTypes ?? ['Ingress']).includes(direction),
  );
  if (!isolating.length) return true;
  return isolating.some((policy) => {
    const rules =
      direction === 'Ingress'
        ? (policy.spec?.ingress ?? []).map((rule) => ({ peers: rule.from, ports: rule.ports }))
        : (policy.spec?.egress ?? []).map((rule) => ({ peers: rule.to, ports: rule.ports }));
    return rules.some(
      (rule) =>
        portMatches(rule.ports, port) && (!rule.peers || rule.peers.some((peer) => peerMatches(peer, policy.metadata.namespace!, other))),
    );
  });
}

let platform: Endpoint[];
let policies: NetworkPolicy[];

beforeAll(() => {
  if (!kubectl) return;
  const objects = KUSTOMIZATIONS.flatMap((kustomization) => render(kubectl, kustomization));
  policies = ofKind<NetworkPolicy>(objects, 'NetworkPolicy');
  const workloads = [...ofKind<Deployment>(objects, 'Deployment'), ...ofKind<Job>(objects, 'Job')];
  platform = workloads.map((workload) => ({
    name: workload.metadata.name,
    pod: { namespace: workload.metadata.namespace!, labels: workload.spec!.template.metadata!.labels! },
    listens: podSpec(workload).containers.flatMap((container) => (container.ports ?? []).map((port) => tcp(port.containerPort))),
  }));
});

describe.skipIf(!kubectl)('the NetworkPolicies of the example overlay', () => {
  it('allow exactly the flows of the architecture', () => {
    const endpoints = [...platform, ...SURROUNDINGS];
    const ours = new Set(platform.map((endpoint) => endpoint.name));
    const allowed: string[] = [];
    for (const from of endpoints) {
      for (const to of endpoints) {
        if (from === to || !(ours.has(from.name) || ours.has(to.name))) continue;
        for (const port of to.listens) {
          if (allows(policies, 'Egress', from, to, port) && allows(policies, 'Ingress', to, from, port))
            allowed.push(flow(from.name, to.name, port.port, port.protocol));
        }
      }
    }
    expect(allowed.sort()).toEqual(EXPECTED);
  });

  it('isolate every pod of the namespace both ways by default', () => {
    const deny = policies.find((policy) => policy.metadata.name === 'default-deny');
    expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  });
});
