import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv, zBoolFlag, zPort } from './config.js';

describe('configuration', () => {
  const schema = z.object({ FLAG: zBoolFlag, PORT: zPort(8080), SECRET: z.string().min(8) });

  it('reads "false" as false and defaults', () => {
    expect(parseEnv(schema, { FLAG: 'false', SECRET: 'abcdefgh' })).toEqual({ FLAG: false, PORT: 8080, SECRET: 'abcdefgh' });
    expect(parseEnv(schema, { FLAG: 'true', PORT: '9000', SECRET: 'abcdefgh' })).toMatchObject({ FLAG: true, PORT: 9000 });
  });

  it('names the bad variable and never prints its value', () => {
    expect(() => parseEnv(schema, { FLAG: 'maybe', PORT: 'http', SECRET: 'short-secret-value'.slice(0, 5) })).toThrow(ConfigError);
    try {
      parseEnv(schema, { FLAG: 'true', PORT: '70000', SECRET: 'hunter' });
    } catch (err) {
      expect((err as Error).message).toContain('PORT');
      expect((err as Error).message).toContain('SECRET');
      expect((err as Error).message).not.toContain('hunter');
    }
  });
});
