import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { commonConfig, ConfigError, crossFieldRule, distinctSecrets, parseEnv, ZCommonEnv, zBoolFlag, zPort } from './config.js';

/** The message of the ConfigError a parse throws; fails the test when nothing is thrown. */
function configErrorOf(parse: () => unknown): string {
  let thrown: unknown;
  try {
    parse();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return (thrown as ConfigError).message;
}

describe('configuration', () => {
  const schema = z.object({ FLAG: zBoolFlag(false), PORT: zPort(8080), SECRET: z.string().min(8) });

  it('reads "false" as false and defaults', () => {
    expect(parseEnv(schema, { FLAG: 'false', SECRET: 'abcdefgh' })).toEqual({ FLAG: false, PORT: 8080, SECRET: 'abcdefgh' });
    expect(parseEnv(schema, { FLAG: 'true', PORT: '9000', SECRET: 'abcdefgh' })).toMatchObject({ FLAG: true, PORT: 9000 });
    expect(parseEnv(z.object({ ON: zBoolFlag(true) }), {})).toEqual({ ON: true });
  });

  it('names every bad variable at once and never prints a value', () => {
    const message = configErrorOf(() => parseEnv(schema, { FLAG: 'maybe', PORT: '70000', SECRET: 'hunter' }));
    expect(message).toContain('FLAG');
    expect(message).toContain('PORT');
    expect(message).toContain('SECRET');
    expect(message).not.toContain('hunter');
    expect(message).not.toContain('maybe');
  });

  it('refuses one secret reused for two purposes, naming the second', () => {
    const secrets = z.object({ A_SECRET: z.string(), B_SECRET: z.string() }).check(distinctSecrets('A_SECRET', 'B_SECRET'));
    expect(parseEnv(secrets, { A_SECRET: 'one', B_SECRET: 'two' })).toEqual({ A_SECRET: 'one', B_SECRET: 'two' });
    const message = configErrorOf(() => parseEnv(secrets, { A_SECRET: 'same-value', B_SECRET: 'same-value' }));
    expect(message).toContain('B_SECRET: must differ from A_SECRET');
    expect(message).not.toContain('same-value');
  });

  it('reports a broken cross-field rule beside any other bad variable, in one start', () => {
    const schema = z
      .object({
        DATABASE_URL: z.string().min(1),
        A_SECRET: z.string(),
        B_SECRET: z.string(),
        LOW: z.coerce.number(),
        HIGH: z.coerce.number(),
      })
      .check(distinctSecrets('A_SECRET', 'B_SECRET'))
      .check(
        crossFieldRule(['LOW', 'HIGH'], (env: { LOW: number; HIGH: number }, ctx) => {
          if (env.LOW > env.HIGH) ctx.addIssue({ code: 'custom', path: ['LOW'], message: 'must not exceed HIGH' });
        }),
      );
    const message = configErrorOf(() => parseEnv(schema, { A_SECRET: 'same', B_SECRET: 'same', LOW: '5', HIGH: '1' }));
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('B_SECRET: must differ from A_SECRET');
    expect(message).toContain('LOW: must not exceed HIGH');
  });

  it('leaves a cross-field rule alone while a variable it reads is itself bad', () => {
    const schema = z.object({ A_SECRET: z.string().min(8), B_SECRET: z.string().min(8) }).check(distinctSecrets('A_SECRET', 'B_SECRET'));
    const message = configErrorOf(() => parseEnv(schema, { A_SECRET: 'short', B_SECRET: 'short' }));
    expect(message).not.toContain('must differ');
  });

  it('gives every service readiness and shutdown settings: 1 s checks, a 5 s drain, 30 s for streams unless set', () => {
    const base = { DATABASE_URL: 'postgres://db', REDIS_URL: 'redis://redis' };
    expect(commonConfig(parseEnv(ZCommonEnv, base))).toMatchObject({
      readinessCheckTimeoutMs: 1000,
      shutdown: { drainMs: 5000, streamGraceMs: 30_000 },
    });
    const set = { ...base, READINESS_CHECK_TIMEOUT_MS: '250', SHUTDOWN_DRAIN_SECONDS: '0.5', SHUTDOWN_STREAM_GRACE_SECONDS: '0' };
    expect(commonConfig(parseEnv(ZCommonEnv, set))).toMatchObject({
      readinessCheckTimeoutMs: 250,
      shutdown: { drainMs: 500, streamGraceMs: 0 },
    });
    const message = configErrorOf(() => parseEnv(ZCommonEnv, { ...base, SHUTDOWN_DRAIN_SECONDS: '-1', READINESS_CHECK_TIMEOUT_MS: '0' }));
    expect(message).toContain('SHUTDOWN_DRAIN_SECONDS');
    expect(message).toContain('READINESS_CHECK_TIMEOUT_MS');
  });
});
