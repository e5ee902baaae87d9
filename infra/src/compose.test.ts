import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configLoader, exampleSecrets, repoRoot, SERVICES } from './k8s-manifests.js';

// infra/compose.yaml runs the images of infra/Dockerfile with the variables of the Kubernetes manifests:
// each service's own config schema must accept what compose gives it.

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  env_file?: string[];
  environment?: Record<string, string>;
  read_only?: boolean;
  user?: string;
  cap_drop?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(await readFile(join(repoRoot, 'infra/compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};

/** An env file: NAME=value lines, comments and blank lines ignored, the value taken as written. */
async function readEnvFile(path: string): Promise<Record<string, string>> {
  const text = await readFile(path, 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
}

/** Compose's interpolation of `${NAME}`, `${NAME:?message}` and `${NAME:-default}` from the env file. */
const interpolate = (value: string, variable: (name: string) => string) =>
  value.replace(/\$\{([A-Z][A-Z0-9_]*)(?::[-?][^}]*)?\}/g, (_, name: string) => variable(name)).replace(/\$\$/g, '$');

describe('infra/compose.yaml', () => {
  it.each(SERVICES)('starts %s from its image with a configuration its schema accepts', async (service) => {
    const definition = compose.services[service]!;
    expect(definition.image).toBe(`partner/${service}`);
    expect(definition.build).toEqual({ context: '..', dockerfile: 'infra/Dockerfile', args: { SERVICE: service } });
    expect({ read_only: definition.read_only, user: definition.user, cap_drop: definition.cap_drop }).toEqual({
      read_only: true,
      user: '1000:1000',
      cap_drop: ['ALL'],
    });
    expect(definition.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });

    const secrets = exampleSecrets();
    const env: Record<string, string> = {};
    for (const file of definition.env_file ?? []) Object.assign(env, await readEnvFile(join(repoRoot, 'infra', file)));
    for (const [name, value] of Object.entries(definition.environment ?? {})) env[name] = interpolate(String(value), secrets);
    const config = (await configLoader(service))(env);
    for (const published of definition.ports ?? []) expect(published).toBe(`127.0.0.1:${config.port}:${config.port}`);
  });

  it('migrates first, with the command of the Kubernetes Job', async () => {
    const job = parse(await readFile(join(repoRoot, 'infra/k8s/base/migrate/job.yaml'), 'utf8')) as {
      spec: { template: { spec: { containers: { command: string[] }[] } } };
    };
    expect(compose.services.migrate!.command).toEqual(job.spec.template.spec.containers[0]!.command);
    expect(compose.services.migrate!.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
  });
});
