import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectError, useAppHarness } from '../testing/app-harness.js';

const h = useAppHarness();

const trail = (query: Record<string, string | number> = {}) => request(h.app).get('/console/audit-events').query(query).set(h.admin);

interface Recorded {
  action: string;
  targetId: string | null;
  requestId: string;
  actor: string;
  status: number;
}

describe('the audit trail', () => {
  it('records each change made through console, with who, what, when and the request id; reads and refusals are not changes', async () => {
    const created = await request(h.app)
      .post('/console/restaurants')
      .set(h.admin)
      .send({ name: 'Audited Kitchen', slug: `audited-${Date.now()}`, currency: 'EUR' })
      .expect(201);
    const restaurantId = created.body.data.id as string;
    const renamed = await request(h.app).patch(`/console/restaurants/${restaurantId}`).set(h.admin).send({ name: 'Renamed' }).expect(200);
    const killed = await request(h.app).put('/console/platform/kill-switch').set(h.admin).send({ concierge: true }).expect(200);
    await request(h.app).get(`/console/restaurants/${restaurantId}`).set(h.admin).expect(200);
    await request(h.app).patch(`/console/restaurants/${restaurantId}`).set(h.admin).send({ currency: 'nope' }).expect(400);
    await request(h.app).patch('/console/restaurants/rst_unknown000000').set({}).send({ name: 'x' }).expect(401);

    await expect.poll(async () => (await trail()).body.data.length).toBe(3);
    const events = (await trail()).body.data as Recorded[];
    expect(events.map(({ action, targetId, requestId, actor, status }) => ({ action, targetId, requestId, actor, status }))).toEqual([
      {
        action: 'PUT /console/platform/kill-switch',
        targetId: null,
        requestId: killed.headers['x-request-id'],
        actor: 'operator',
        status: 200,
      },
      {
        action: 'PATCH /console/restaurants/:id',
        targetId: restaurantId,
        requestId: renamed.headers['x-request-id'],
        actor: 'operator',
        status: 200,
      },
      { action: 'POST /console/restaurants', targetId: null, requestId: created.headers['x-request-id'], actor: 'operator', status: 201 },
    ]);
  });

  it('pages newest first with a cursor, and refuses a cursor it did not give out', async () => {
    const requestIds: string[] = [];
    for (const concierge of [true, false, true]) {
      const res = await request(h.app).put('/console/platform/kill-switch').set(h.admin).send({ concierge }).expect(200);
      requestIds.unshift(res.headers['x-request-id'] as string);
    }
    await expect.poll(async () => (await trail({ limit: 1 })).body.data[0]?.requestId).toBe(requestIds[0]);
    const first = await trail({ limit: 2 }).expect(200);
    const second = await trail({ limit: 2, cursor: first.body.meta.nextCursor as string }).expect(200);
    const paged = [...first.body.data, ...second.body.data] as (Recorded & { id: string })[];
    expect(paged.slice(0, 3).map((event) => event.requestId)).toEqual(requestIds);
    expect(new Set(paged.map((event) => event.id)).size).toBe(paged.length);
    expectError(await trail({ cursor: 'not-a-cursor' }), 400, 'invalid_cursor');
    expectError(await request(h.app).get('/console/audit-events'), 401, 'unauthorized');
  });
});
