import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { readPlatformSettings } from '@partner/db';
import { expectError, useAppHarness } from '../testing/app-harness.js';

const h = useAppHarness();

const read = () => request(h.app).get('/console/platform/kill-switch').set(h.admin);
const put = (body: unknown) =>
  request(h.app)
    .put('/console/platform/kill-switch')
    .set(h.admin)
    .send(body as object);

describe('the platform kill switch', () => {
  it('is off until turned on, and is stored where the services read it', async () => {
    expect((await read()).body).toEqual({ data: { concierge: false } });

    const on = await put({ concierge: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ data: { concierge: true } });
    expect((await read()).body.data.concierge).toBe(true);
    expect(await readPlatformSettings(h.deps.db)).toEqual({ conciergeKillSwitch: true });

    await put({ concierge: false });
    expect((await read()).body.data.concierge).toBe(false);
    expect(await readPlatformSettings(h.deps.db)).toEqual({ conciergeKillSwitch: false });
  });

  it.each([
    ['a string', { concierge: 'on' }, 'concierge'],
    ['no value', {}, 'concierge'],
    ['an unknown switch', { concierge: true, webhooks: true }, 'webhooks'],
  ])('refuses %s with 400 invalid_request, changing nothing', async (_name, body, param) => {
    await put({ concierge: true });
    expectError(await put(body), 400, 'invalid_request', param);
    expect(await readPlatformSettings(h.deps.db)).toEqual({ conciergeKillSwitch: true });
  });
});
