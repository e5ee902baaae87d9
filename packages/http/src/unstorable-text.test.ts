import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestDatabase, useTestDatabase } from '@partner/testing';
import { silentLogger } from './logger.js';
import { createServiceApp } from './service-app.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

/** A service whose routes hand what the client sent to Postgres unchecked: a path id as text, a body as jsonb. */
function storingService() {
  return createServiceApp({
    service: 'store',
    logger: silentLogger(),
    guard: (_req, _res, next) => next(),
    trustIncomingRequestId: false,
    maxBodyBytes: 1024,
    register: (router) => {
      router.get('/things/:id', async (req, res) => {
        const { rows } = await sql<{ id: string }>`select ${req.params.id}::text as id`.execute(database.db);
        res.json({ data: rows[0] });
      });
      router.post('/things', async (req, res) => {
        const { rows } = await sql<{ body: unknown }>`select ${JSON.stringify(req.body)}::jsonb as body`.execute(database.db);
        res.json({ data: rows[0] });
      });
    },
  });
}

describe('a NUL character that reaches Postgres', () => {
  it('is the client’s 400 invalid_request, in a path and in a JSON body, never a 500', async () => {
    const app = storingService();
    expect((await request(app).get('/things/thg_1')).body).toEqual({ data: { id: 'thg_1' } });
    expectError(await request(app).get('/things/a%00b'), 400, 'invalid_request');
    expectError(
      await request(app).post('/things').set('Content-Type', 'application/json').send('{"note":"a\\u0000b"}'),
      400,
      'invalid_request',
    );
  });
});
