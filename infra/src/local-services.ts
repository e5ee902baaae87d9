// What `pnpm start` does about Postgres and Redis, decided from what it found on the machine. Pure: the
// probing is in local-probes.ts, the doing in local-prepare.ts.

export type LocalService = 'postgres' | 'redis';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/partner';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface LocalServiceFacts {
  /** Something listens on its default local port. */
  answering: boolean;
  /** Debian's package is installed (ensure-services.sh can start it). */
  installed: boolean;
}

export interface LocalFacts {
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  postgres: LocalServiceFacts;
  redis: LocalServiceFacts;
  root: boolean;
  /** apt-get is on the PATH: Debian's packages can be installed. */
  apt: boolean;
}

export interface ReadyPlan {
  ok: true;
  databaseUrl: string;
  redisUrl: string;
  /** To install (Debian's packages), then start. */
  install: LocalService[];
  /** Installed, to start. */
  start: LocalService[];
}

export type LocalPlan = ReadyPlan | { ok: false; message: string };

const SERVICES = {
  postgres: {
    name: 'Postgres',
    version: '15+',
    variable: 'DATABASE_URL',
    protocols: ['postgres:', 'postgresql:'],
    fallback: DEFAULT_DATABASE_URL,
    debianPackage: 'postgresql',
  },
  redis: {
    name: 'Redis',
    version: '7+',
    variable: 'REDIS_URL',
    protocols: ['redis:', 'rediss:'],
    fallback: DEFAULT_REDIS_URL,
    debianPackage: 'redis-server',
  },
} as const;

type Need = 'use' | 'start' | 'install' | 'not installed' | 'not running';

// A given URL is used as it is: whatever runs (or not) on this machine is none of our business then.
function needOf(given: string | undefined, facts: LocalServiceFacts, root: boolean, apt: boolean): Need {
  if (given || facts.answering) return 'use';
  // Starting Debian's Postgres and Redis takes root (pg_ctlcluster, /var/lib/redis), as installing does.
  if (facts.installed) return root ? 'start' : 'not running';
  return root && apt ? 'install' : 'not installed';
}

const joined = (words: string[]) => words.join(' and ');

/** One line: what is missing, how to get it, and the way around it. */
function missingLine(notInstalled: LocalService[], notRunning: LocalService[], apt: boolean): string {
  const are = (services: LocalService[]) => (services.length > 1 ? 'are' : 'is');
  const them = (services: LocalService[]) => (services.length > 1 ? 'them' : 'it');
  const clauses: string[] = [];
  if (notInstalled.length) {
    const names = joined(notInstalled.map((service) => `${SERVICES[service].name} ${SERVICES[service].version}`));
    const command = `apt-get install ${notInstalled.map((service) => SERVICES[service].debianPackage).join(' ')}`;
    clauses.push(
      apt
        ? `${names} ${are(notInstalled)} needed: ${command} (as root, pnpm start installs ${them(notInstalled)} itself)`
        : `${names} ${are(notInstalled)} needed: install and start ${them(notInstalled)} (on Debian: ${command})`,
    );
  }
  if (notRunning.length) {
    const names = joined(notRunning.map((service) => SERVICES[service].name));
    clauses.push(`${names} ${are(notRunning)} installed but not running: start ${them(notRunning)} (as root, pnpm start does)`);
  }
  const missing = (['postgres', 'redis'] as const).filter((service) => [...notInstalled, ...notRunning].includes(service));
  return `${clauses.join('; ')}; or set ${joined(missing.map((service) => SERVICES[service].variable))}`;
}

function badUrl(service: LocalService, given: string | undefined): string | undefined {
  if (!given) return undefined;
  const { variable, protocols } = SERVICES[service];
  let protocol: string;
  try {
    protocol = new URL(given).protocol;
  } catch {
    return `${variable} is not a URL (${protocols[0]}//user:password@host:port/...)`;
  }
  return (protocols as readonly string[]).includes(protocol)
    ? undefined
    : `${variable} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`;
}

export function planLocalServices(facts: LocalFacts): LocalPlan {
  const given = { postgres: facts.databaseUrl || undefined, redis: facts.redisUrl || undefined };
  const invalid = (['postgres', 'redis'] as const).map((service) => badUrl(service, given[service])).filter(Boolean);
  if (invalid.length) return { ok: false, message: invalid.join('; ') };

  const needs = {
    postgres: needOf(given.postgres, facts.postgres, facts.root, facts.apt),
    redis: needOf(given.redis, facts.redis, facts.root, facts.apt),
  };
  const those = (need: Need) => (['postgres', 'redis'] as const).filter((service) => needs[service] === need);
  const notInstalled = those('not installed');
  const notRunning = those('not running');
  if (notInstalled.length || notRunning.length) return { ok: false, message: missingLine(notInstalled, notRunning, facts.apt) };

  return {
    ok: true,
    databaseUrl: given.postgres ?? SERVICES.postgres.fallback,
    redisUrl: given.redis ?? SERVICES.redis.fallback,
    install: those('install'),
    start: those('start'),
  };
}

/** A URL fit to print: the password, if any, replaced by ***. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
