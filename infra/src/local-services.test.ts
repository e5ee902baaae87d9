import { describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, type LocalFacts, maskUrl, planLocalServices } from './local-services.js';

const running = { answering: true, installed: true };
const stopped = { answering: false, installed: true };
const absent = { answering: false, installed: false };

const facts = (overrides: Partial<LocalFacts>): LocalFacts => ({
  databaseUrl: undefined,
  redisUrl: undefined,
  postgres: running,
  redis: running,
  root: false,
  apt: true,
  ...overrides,
});

describe('planLocalServices', () => {
  it('uses what answers on this machine, starting nothing', () => {
    expect(planLocalServices(facts({}))).toEqual({
      ok: true,
      databaseUrl: DEFAULT_DATABASE_URL,
      redisUrl: DEFAULT_REDIS_URL,
      install: [],
      start: [],
    });
  });

  it('uses given URLs as they are, password included, and touches nothing local for them', () => {
    const given = { databaseUrl: 'postgres://app:s3cret@db.internal:5432/partner', redisUrl: 'redis://:secret@cache:6379' };
    expect(planLocalServices(facts({ ...given, postgres: absent, redis: absent, root: true }))).toEqual({
      ok: true,
      ...given,
      install: [],
      start: [],
    });
  });

  it('decides each service on its own: a given DATABASE_URL and a local Redis to start', () => {
    const plan = planLocalServices(facts({ databaseUrl: 'postgres://app:pw@db/partner', postgres: absent, redis: stopped, root: true }));
    expect(plan).toEqual({
      ok: true,
      databaseUrl: 'postgres://app:pw@db/partner',
      redisUrl: DEFAULT_REDIS_URL,
      install: [],
      start: ['redis'],
    });
  });

  it('treats an empty variable as not given', () => {
    const plan = planLocalServices(facts({ databaseUrl: '', redisUrl: '', postgres: stopped, redis: stopped, root: true }));
    expect(plan).toMatchObject({ ok: true, databaseUrl: DEFAULT_DATABASE_URL, redisUrl: DEFAULT_REDIS_URL, start: ['postgres', 'redis'] });
  });

  it("installs Debian's packages as root when they are missing, and starts what is installed", () => {
    expect(planLocalServices(facts({ postgres: absent, redis: stopped, root: true }))).toMatchObject({
      ok: true,
      install: ['postgres'],
      start: ['redis'],
    });
  });

  it('says in one line what to install when it cannot (not root)', () => {
    expect(planLocalServices(facts({ postgres: absent, redis: absent }))).toEqual({
      ok: false,
      message:
        'Postgres 15+ and Redis 7+ are needed: apt-get install postgresql redis-server (as root, pnpm start installs them itself); or set DATABASE_URL and REDIS_URL',
    });
  });

  it('names only what is missing', () => {
    expect(planLocalServices(facts({ redis: absent }))).toEqual({
      ok: false,
      message: 'Redis 7+ is needed: apt-get install redis-server (as root, pnpm start installs it itself); or set REDIS_URL',
    });
  });

  it('does not offer to install where there is no apt-get, even as root', () => {
    expect(planLocalServices(facts({ postgres: absent, redis: absent, root: true, apt: false }))).toEqual({
      ok: false,
      message:
        'Postgres 15+ and Redis 7+ are needed: install and start them (on Debian: apt-get install postgresql redis-server); or set DATABASE_URL and REDIS_URL',
    });
  });

  it('says to start what is installed but stopped when it cannot start it (not root)', () => {
    expect(planLocalServices(facts({ postgres: stopped, redis: absent }))).toEqual({
      ok: false,
      message:
        'Redis 7+ is needed: apt-get install redis-server (as root, pnpm start installs it itself); Postgres is installed but not running: start it (as root, pnpm start does); or set DATABASE_URL and REDIS_URL',
    });
  });

  it('refuses a variable that is not a URL of the right kind, without echoing it', () => {
    const plan = planLocalServices(facts({ databaseUrl: 'host=db password=s3cret', redisUrl: 'postgres://x:s3cret@db/p' }));
    expect(plan).toEqual({
      ok: false,
      message: 'DATABASE_URL is not a URL (postgres://user:password@host:port/...); REDIS_URL must start with redis:// or rediss://',
    });
  });
});

describe('maskUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(maskUrl('postgres://app:s%40cr3t@db:5432/partner?sslmode=require')).toBe('postgres://app:***@db:5432/partner?sslmode=require');
    expect(maskUrl('redis://:secret@cache:6379')).toBe('redis://:***@cache:6379');
  });

  it('leaves a URL without password as it is', () => {
    expect(maskUrl(DEFAULT_DATABASE_URL)).toBe(DEFAULT_DATABASE_URL);
    expect(maskUrl(DEFAULT_REDIS_URL)).toBe(DEFAULT_REDIS_URL);
  });

  it('prints nothing of what it cannot parse', () => {
    expect(maskUrl('host=db password=s3cret')).toBe('(not a URL)');
  });
});
