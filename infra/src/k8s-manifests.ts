import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IContainer, IEnvVar, IPodSpec } from 'kubernetes-models/v1';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { parseAllDocuments } from 'yaml';
import { generateInternalKeyPair } from '@partner/auth';
import { SealingKeys } from '@partner/signing';

// What the deployment tests (k8s-*.test.ts, compose.test.ts) read: the example overlay as `kubectl kustomize`
// renders it, each service's config schema, Secret values of the right shape.

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The services, as named in the manifests (app.kubernetes.io/name) and under services/. */
export const SERVICES = ['gateway', 'catalog', 'webhooks', 'concierge', 'console'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The two kustomizations an environment applies: the migration Job first, then the services. */
export const KUSTOMIZATIONS = ['infra/k8s/overlays/example/migrate', 'infra/k8s/overlays/example'] as const;

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** kubectl on PATH (it carries kustomize), or null. */
export function findKubectl(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'kubectl');
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export function render(kubectl: string, kustomization: string): K8sObject[] {
  const output = execFileSync(kubectl, ['kustomize', join(repoRoot, kustomization)], { encoding: 'utf8' });
  return parseAllDocuments(output).map((document) => {
    if (document.errors.length) throw new Error(`${kustomization}: ${document.errors.map((error) => error.message).join('; ')}`);
    return document.toJS() as K8sObject;
  });
}

export function named<T extends K8sObject>(objects: K8sObject[], kind: string, name: string): T {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found as T;
}

export const ofKind = <T extends K8sObject>(objects: K8sObject[], kind: string): T[] =>
  objects.filter((object) => object.kind === kind) as T[];

export type Deployment = IDeployment & K8sObject;
export type Job = IJob & K8sObject;
export type ConfigMap = IConfigMap & K8sObject;
export type NetworkPolicy = INetworkPolicy & K8sObject;

export function podSpec(workload: Deployment | Job): IPodSpec {
  const spec = workload.spec?.template.spec;
  if (!spec) throw new Error(`${workload.kind} ${workload.metadata.name} has no pod template`);
  return spec;
}

export function appContainer(deployment: Deployment): IContainer {
  const container = podSpec(deployment).containers.find((candidate) => candidate.name === 'app');
  if (!container) throw new Error(`Deployment ${deployment.metadata.name} has no container named app`);
  return container;
}

/** The container port named `http`: where the service listens, and what probes and the Service target. */
export function httpPort(container: IContainer): number {
  const port = container.ports?.find((candidate) => candidate.name === 'http');
  if (!port) throw new Error(`container ${container.name} has no port named http`);
  return port.containerPort;
}

/**
 * The environment a container starts with: literal values, ConfigMap keys, and Secret keys through
 * `secret(key)` (the Secret's values are not in the repository). An optional reference to a missing
 * key leaves the variable unset, as the kubelet does; a required one throws.
 */
export function resolveEnv(env: IEnvVar[], configMap: ConfigMap, secret: (key: string) => string | undefined): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const variable of env) {
    const value = valueOf(variable, configMap, secret);
    if (value !== undefined) resolved[variable.name] = value;
  }
  return resolved;
}

function valueOf(variable: IEnvVar, configMap: ConfigMap, secret: (key: string) => string | undefined): string | undefined {
  if (variable.value !== undefined) return variable.value;
  const configRef = variable.valueFrom?.configMapKeyRef;
  const secretRef = variable.valueFrom?.secretKeyRef;
  const ref = configRef ?? secretRef;
  if (!ref) throw new Error(`${variable.name}: neither a value, a configMapKeyRef nor a secretKeyRef`);
  if (configRef && configRef.name !== configMap.metadata.name) throw new Error(`${variable.name}: reads ConfigMap ${configRef.name}`);
  const value = configRef ? configMap.data?.[ref.key] : secret(ref.key);
  if (value === undefined && !ref.optional) throw new Error(`${variable.name}: required key ${ref.key} is missing`);
  return value;
}

export type LoadConfig = (env: Record<string, string | undefined>) => { port: number };

/**
 * Each service's own `loadXConfig` from its source: the schema that decides what it requires. A computed
 * path, because infra deploys none of the services; it only checks how they are deployed.
 */
export async function configLoader(service: ServiceName): Promise<LoadConfig> {
  const module = (await import(join(repoRoot, 'services', service, 'src/config.ts'))) as Record<string, LoadConfig>;
  return module[`load${service[0]!.toUpperCase()}${service.slice(1)}Config`]!;
}

/** Values of the right shape for every key of the Secret `partner-secrets`, as an operator would create them. */
export function exampleSecrets(): (key: string) => string {
  const jwt = generateInternalKeyPair();
  const shaped: Record<string, string> = {
    DATABASE_URL: 'postgres://partner:password@10.20.0.5:5432/partner',
    REDIS_URL: 'redis://:password@10.20.1.5:6379',
    INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey.replace(/\n/g, '\\n'),
    INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey.replace(/\n/g, '\\n'),
    WEBHOOK_SEALING_KEYS: SealingKeys.generateSpec('2026-11'),
    SMTP_URL: 'smtp://notifications:password@smtp.example.com:587',
    // Straight to Postgres, as behind a pooler it must be (docs/deployment.md).
    WEBHOOK_LISTEN_URL: 'postgres://partner:password@10.20.0.5:5432/partner',
  };
  // Every other key is a random secret; each differs from the others, as catalog requires.
  return (key) => (shaped[key] ??= randomBytes(32).toString('base64url'));
}

/** What the Kubernetes schemas (kubernetes-models) refuse in these objects, one line each. */
export async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const object of objects) {
    const models = (await import(/* @vite-ignore */ `kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<
      string,
      new (data: unknown) => { validate(): void }
    >;
    try {
      new models[object.kind]!(object).validate();
    } catch (err) {
      problems.push(`${object.kind} ${object.metadata.name}: ${(err as Error).message}`);
    }
  }
  return problems;
}
