import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IService } from 'kubernetes-models/v1/Service';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appContainer,
  configLoader,
  exampleSecrets,
  findKubectl,
  httpPort,
  KUSTOMIZATIONS,
  named,
  ofKind,
  podSpec,
  render,
  repoRoot,
  resolveEnv,
  schemaProblems,
  SERVICES,
  type ConfigMap,
  type Deployment,
  type Job,
  type K8sObject,
  type LoadConfig,
  type ServiceName,
} from './k8s-manifests.js';

const kubectl = findKubectl();
if (!kubectl) console.warn('kubectl is not on PATH: the Kubernetes manifest tests are skipped (CI has it)');

/** Documented variables no Deployment sets, and why. */
const NOT_FOR_KUBERNETES: Record<string, string> = {
  ASSET_STORAGE_DIR: "the local driver's directory: in Kubernetes the files are in S3 (ASSET_STORAGE_DRIVER=s3)",
  CONSOLE_URL: "the operators' CLI and the dashboard, whose manifests are their own (k8s-dashboard.test.ts)",
  DASHBOARD_PORT: 'the dashboard: infra/k8s/dashboard (k8s-dashboard.test.ts)',
  DASHBOARD_HOST: 'the dashboard: infra/k8s/dashboard (k8s-dashboard.test.ts)',
  CONSOLE_TIMEOUT_MS: 'the dashboard: infra/k8s/dashboard (k8s-dashboard.test.ts)',
};

/** The variables a schema reports missing or bad for `env` (parseEnv names them, never values). */
function refusedVariables(load: LoadConfig, env: Record<string, string>): string[] {
  try {
    load(env);
    return [];
  } catch (err) {
    return [...(err as Error).message.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
  }
}

let objects: K8sObject[];
let configMap: ConfigMap;
const deployments = {} as Record<ServiceName, Deployment>;

beforeAll(() => {
  if (!kubectl) return;
  objects = KUSTOMIZATIONS.flatMap((kustomization) => render(kubectl, kustomization));
  configMap = ofKind<ConfigMap>(objects, 'ConfigMap')[0]!;
  for (const service of SERVICES) deployments[service] = named(objects, 'Deployment', service);
});

describe.skipIf(!kubectl)('the example overlay, rendered by kubectl kustomize', () => {
  it('holds only objects that are valid against the Kubernetes schemas', async () => {
    expect(await schemaProblems(objects)).toEqual([]);
    expect(objects.map((object) => object.kind)).toEqual(
      expect.arrayContaining(['Job', 'Deployment', 'Service', 'Ingress', 'NetworkPolicy']),
    );
  });

  it('carries no secret: no Secret object, no literal value where the Secret is read', () => {
    expect(ofKind(objects, 'Secret')).toEqual([]);
    for (const workload of [...Object.values(deployments), named<Job>(objects, 'Job', 'migrate')]) {
      const literal = podSpec(workload)
        .containers.flatMap((container) => container.env ?? [])
        .filter((variable) => variable.value !== undefined);
      expect(
        literal.map((variable) => variable.name),
        workload.metadata.name,
      ).toEqual([]);
    }
  });

  it('runs every container as non-root with a read-only root filesystem, no privilege escalation and no capabilities', () => {
    for (const workload of [...Object.values(deployments), named<Job>(objects, 'Job', 'migrate')]) {
      const pod = podSpec(workload);
      expect(pod.securityContext, workload.metadata.name).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod.securityContext?.runAsUser).not.toBe(0);
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext, workload.metadata.name).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
      }
    }
  });

  it.each(SERVICES)(
    'gives %s every variable its config requires, and a config that loads',
    async (service) => {
      const load = await configLoader(service);
      const env = appContainer(deployments[service]).env ?? [];
      const provided = new Set(
        env
          .filter((variable) => !(variable.valueFrom?.configMapKeyRef ?? variable.valueFrom?.secretKeyRef)?.optional)
          .map((variable) => variable.name),
      );
      // What the schema refuses given the ConfigMap alone: every unconditionally required variable, and those
      // the ConfigMap's choices require (ASSET_STORAGE_DRIVER=s3 requires the bucket, not a directory).
      const fromConfigMap = resolveEnv(
        env.filter((variable) => variable.valueFrom?.configMapKeyRef),
        configMap,
        () => undefined,
      );
      const required = refusedVariables(load, fromConfigMap);
      expect(required).toContain('DATABASE_URL');
      expect(required.filter((name) => !provided.has(name))).toEqual([]);

      const config = load(resolveEnv(env, configMap, exampleSecrets()));
      expect(config.port).toBe(httpPort(appContainer(deployments[service])));
    },
    120_000,
  ); // each loads its service's config module from source, slow on a busy machine

  it('reads Secret keys that the example secrets file lists, and ConfigMap keys that exist', async () => {
    const listed = await readFile(join(repoRoot, 'infra/k8s/overlays/example/secrets.env.example'), 'utf8');
    const secretKeys = new Set([...listed.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
    for (const workload of [...Object.values(deployments), named<Job>(objects, 'Job', 'migrate')]) {
      for (const variable of podSpec(workload).containers.flatMap((container) => container.env ?? [])) {
        const secretRef = variable.valueFrom?.secretKeyRef;
        if (secretRef) expect(secretKeys.has(secretRef.key) && secretRef.name === 'partner-secrets', variable.name).toBe(true);
      }
    }
    // resolveEnv throws on a required ConfigMap key that is missing.
    for (const deployment of Object.values(deployments)) resolveEnv(appContainer(deployment).env ?? [], configMap, exampleSecrets());
  });

  it('sets every variable of docs/configuration.md in the Deployment of a service that reads it', async () => {
    const doc = await readFile(join(repoRoot, 'docs/configuration.md'), 'utf8');
    const documented = doc
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!))
      .filter((name) => !(name in NOT_FOR_KUBERNETES));
    const set = new Set(
      Object.values(deployments).flatMap((deployment) => (appContainer(deployment).env ?? []).map((variable) => variable.name)),
    );
    expect(documented.length).toBeGreaterThan(40);
    expect(documented.filter((name) => !set.has(name))).toEqual([]);
  });

  it.each(SERVICES)('probes %s where it serves /healthz and /readyz, and exposes that port through its Service', async (service) => {
    const container = appContainer(deployments[service]);
    expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const sources = await serviceSources(service);
    for (const path of ['/healthz', '/readyz']) expect(sources, `${service} serves ${path}`).toContain(`'${path}'`);

    const port = httpPort(container);
    const spec = named<IService & K8sObject>(objects, 'Service', service).spec!;
    expect(spec.type ?? 'ClusterIP').toBe('ClusterIP');
    expect(spec.selector).toEqual({ 'app.kubernetes.io/name': service });
    expect(spec.ports).toEqual([{ name: 'http', port, targetPort: 'http' }]);
  });

  it('points the gateway and console at the Services of the services they call', () => {
    const gatewayEnv = resolveEnv(appContainer(deployments.gateway).env ?? [], configMap, exampleSecrets());
    const consoleEnv = resolveEnv(appContainer(deployments.console).env ?? [], configMap, exampleSecrets());
    const urlOf = (service: ServiceName) => `http://${service}:${httpPort(appContainer(deployments[service]))}`;
    expect([gatewayEnv.CATALOG_URL, gatewayEnv.WEBHOOKS_URL, gatewayEnv.CONCIERGE_URL, consoleEnv.WEBHOOKS_URL]).toEqual(
      (['catalog', 'webhooks', 'concierge', 'webhooks'] as const).map(urlOf),
    );
    // Catalog signs asset URLs for the gateway's public origin, the one the Ingress serves.
    const host = named<IIngress & K8sObject>(objects, 'Ingress', 'gateway').spec!.rules![0]!.host;
    expect(gatewayEnv.PUBLIC_BASE_URL).toBe(`https://${host}`);
    expect(configMap.data?.PUBLIC_BASE_URL).toBe(`https://${host}`);
  });

  it('lets a pod drain and finish its streams before it is killed', () => {
    const seconds = (key: string) => Number(configMap.data?.[key]);
    for (const deployment of Object.values(deployments)) {
      const container = appContainer(deployment);
      const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
      expect(preStop.slice(0, 1), deployment.metadata.name).toEqual(['sleep']);
      const needed = Number(preStop[1]) + seconds('SHUTDOWN_DRAIN_SECONDS') + seconds('SHUTDOWN_STREAM_GRACE_SECONDS');
      expect(podSpec(deployment).terminationGracePeriodSeconds).toBeGreaterThan(needed);
      expect(deployment.spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    }
  });

  it('gives each service a disruption budget, and the gateway, catalog and concierge an autoscaler', () => {
    for (const service of SERVICES) {
      const budget = named<IPodDisruptionBudget & K8sObject>(objects, 'PodDisruptionBudget', service);
      expect(budget.spec?.selector?.matchLabels).toEqual({ 'app.kubernetes.io/name': service });
    }
    const autoscalers = ofKind<IHorizontalPodAutoscaler & K8sObject>(objects, 'HorizontalPodAutoscaler');
    expect(autoscalers.map((hpa) => hpa.spec?.scaleTargetRef.name).sort()).toEqual(['catalog', 'concierge', 'gateway']);
    // An autoscaled Deployment sets no replica count that each apply would reset.
    for (const hpa of autoscalers) expect(deployments[hpa.spec.scaleTargetRef.name as ServiceName].spec?.replicas).toBeUndefined();
    // While Redis is down each gateway allows limit / GATEWAY_REPLICAS: that must count every replica there can be.
    expect(Number(configMap.data?.GATEWAY_REPLICAS)).toBe(
      named<IHorizontalPodAutoscaler & K8sObject>(objects, 'HorizontalPodAutoscaler', 'gateway').spec?.maxReplicas,
    );
  });

  it('exposes only the gateway, through one Ingress that streams SSE unbuffered', () => {
    const ingresses = ofKind<IIngress & K8sObject>(objects, 'Ingress');
    expect(ingresses).toHaveLength(1);
    const backends = ingresses[0]!.spec!.rules!.flatMap((rule) => rule.http!.paths.map((path) => path.backend.service?.name));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    const annotations = ingresses[0]!.metadata.annotations ?? {};
    expect(annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    // Far longer than the concierge's heartbeat: an idle stream is never cut by the proxy.
    const heartbeat = Number(configMap.data?.CONCIERGE_HEARTBEAT_SECONDS);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(60 * heartbeat);
  });

  it('migrates with the migrate CLI of the release being rolled out', () => {
    const job = named<Job>(objects, 'Job', 'migrate');
    const [container] = podSpec(job).containers;
    expect(container!.command).toEqual(['node', 'node_modules/@partner/db/dist/migrate-cli.js']);
    expect(container!.image).toBe(appContainer(deployments.gateway).image);
    expect(podSpec(job).restartPolicy).toBe('Never');
  });
});

/** The non-test sources a service runs: its own and @partner/http's (the service frame). */
async function serviceSources(service: ServiceName): Promise<string> {
  const texts: string[] = [];
  for (const dir of [join(repoRoot, 'services', service, 'src'), join(repoRoot, 'packages/http/src')]) {
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
        texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
    }
  }
  return texts.join('\n');
}
