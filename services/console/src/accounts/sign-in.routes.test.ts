import { createHash } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { zData } from '@partner/contracts';
import { ZSession } from '@partner/contracts/console';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { seedRestaurant } from '../testing/factories.js';
import { Sessions } from './sessions.js';

const h = useAppHarness();

let seq = 0;
const newEmail = () => `person-${process.pid}-${++seq}-${Date.now()}@owner.test`;
/** Any route behind the guard: 200 while the session lives, 401 once it has ended. */
const session = (headers: Record<string, string>) => request(h.app).get('/console/integrators').set(headers);
const cookieOf = (res: request.Response) => res.get('Set-Cookie')![0]!;
const headersFrom = (res: request.Response) => ({
  Cookie: cookieOf(res).split(';')[0]!,
  'X-CSRF-Token': zData(ZSession).parse(res.body).data.csrfToken!,
});
const linkToken = (text: string) => /\/sign-in#token=([\w-]+)/.exec(text)![1]!;
const PASSWORD = 'a long and memorable passphrase';

describe('sign-in by e-mail link', () => {
  it('mails a one-time link to the dashboard that signs its reader in, once', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const owner = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: restaurant.id } }]);
    const email = owner.session.account!.email;

    const asked = await request(h.app).post('/console/sign-in/link').send({ email: email.toUpperCase() });
    expect(asked.status).toBe(202);
    const mail = await h.mailbox.nextMailTo(email);
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.text).toMatch(/http:\/\/dashboard\.test\/sign-in#token=[\w-]{43}/);
    // Stored as its digest only.
    const token = linkToken(mail.text);
    const row = await h.deps.db
      .selectFrom('sign_in_links')
      .selectAll()
      .where('account_id', '=', owner.accountId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(row.token_hash.equals(createHash('sha256').update(token).digest())).toBe(true);

    const redeemed = await request(h.app).post('/console/sign-in/link/redeem').send({ token });
    expect(redeemed.status).toBe(200);
    expect(zData(ZSession).parse(redeemed.body).data).toMatchObject({
      operator: false,
      account: { id: owner.accountId, email, hasPassword: false },
      memberships: [{ kind: 'restaurant', id: restaurant.id, name: restaurant.name, role: 'owner' }],
    });
    expect((await session(headersFrom(redeemed))).status).toBe(200);

    expectError(await request(h.app).post('/console/sign-in/link/redeem').send({ token }), 401, 'invalid_credentials');
  });

  it('answers an address without an account exactly as one with, and mails nothing', async () => {
    const email = newEmail();
    const res = await request(h.app).post('/console/sign-in/link').send({ email });
    expect(res.status).toBe(202);
    expect(res.body.data.message).toBe('If this address has an account, a sign-in link is on its way.');
    await expect(h.mailbox.nextMailTo(email, { timeoutMs: 300 })).rejects.toThrow(/no mail/);
  });

  it('refuses a link past its 15 minutes', async () => {
    const person = await h.signIn(newEmail());
    await request(h.app).post('/console/sign-in/link').send({ email: person.session.account!.email }).expect(202);
    const token = linkToken((await h.mailbox.nextMailTo(person.session.account!.email)).text);
    h.clock.advance(15 * 60_000 + 1_000);
    expectError(await request(h.app).post('/console/sign-in/link/redeem').send({ token }), 401, 'invalid_credentials');
  });

  it('refuses malformed requests in the envelope', async () => {
    expectError(await request(h.app).post('/console/sign-in/link').send({ email: 'not an address' }), 400, 'invalid_request');
    expectError(await request(h.app).post('/console/sign-in/link').send({ email: 'a@b.test', extra: 1 }), 400, 'invalid_request');
    expectError(await request(h.app).post('/console/sign-in/link/redeem').send({}), 400, 'invalid_request');
  });
});

// Each try runs a real scrypt hash (about half a second alone, several on a loaded machine).
describe('sign-in by password', { timeout: 120_000 }, () => {
  it('sets a password once signed in, then signs in with it; a wrong password or unknown address is one and the same 401', async () => {
    const person = await h.signIn(newEmail());
    const email = person.session.account!.email;
    expectError(
      await request(h.app).put('/console/account/password').set(person.headers).send({ password: 'too short' }),
      400,
      'invalid_request',
    );
    const set = await request(h.app).put('/console/account/password').set(person.headers).send({ password: PASSWORD });
    expect(set.status).toBe(200);

    const signedIn = await request(h.app).post('/console/sign-in/password').send({ email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.account).toMatchObject({ id: person.accountId, hasPassword: true });
    const cookie = cookieOf(signedIn);
    expect(cookie).toMatch(/^console_session=[\w-]{43}; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    // Only the token's digest is stored.
    const value = cookie.split(';')[0]!.split('=')[1]!;
    const stored = await h.deps.db.selectFrom('account_sessions').select('token_hash').where('account_id', '=', person.accountId).execute();
    expect(stored.map((row) => row.token_hash.toString('hex'))).toContain(createHash('sha256').update(value).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(value);

    const wrong = await request(h.app)
      .post('/console/sign-in/password')
      .send({ email, password: `${PASSWORD}!` });
    const unknown = await request(h.app).post('/console/sign-in/password').send({ email: newEmail(), password: PASSWORD });
    expectError(wrong, 401, 'invalid_credentials');
    expectError(unknown, 401, 'invalid_credentials');
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.get('Set-Cookie')).toBeUndefined();
  });

  it('changing the password needs the current one (in a session signed in by password) and signs out every other browser', async () => {
    const person = await h.signIn(newEmail());
    await request(h.app).put('/console/account/password').set(person.headers).send({ password: PASSWORD }).expect(200);
    const byPassword = headersFrom(
      await request(h.app).post('/console/sign-in/password').send({ email: person.session.account!.email, password: PASSWORD }).expect(200),
    );
    expectError(
      await request(h.app)
        .put('/console/account/password')
        .set(byPassword)
        .send({ password: `new ${PASSWORD}` }),
      400,
      'invalid_request',
    );
    expectError(
      await request(h.app)
        .put('/console/account/password')
        .set(byPassword)
        .send({ password: `new ${PASSWORD}`, currentPassword: 'wrong' }),
      401,
      'invalid_credentials',
    );
    const changed = await request(h.app)
      .put('/console/account/password')
      .set(byPassword)
      .send({ password: `new ${PASSWORD}`, currentPassword: PASSWORD });
    expect(changed.body.data).toEqual({ passwordSet: true, otherSessionsEnded: 1 });
    expect((await session(byPassword)).status).toBe(200);
    expectError(await session(person.headers), 401, 'unauthorized');
  });

  it('replaces a password without the current one within 15 minutes of a sign-in by e-mailed link, not after', async () => {
    const email = newEmail();
    // Whoever held a session set a password the owner does not know...
    const intruder = await h.signIn(email);
    await request(h.app).put('/console/account/password').set(intruder.headers).send({ password: PASSWORD }).expect(200);
    // ...the owner signs in by link and replaces it, which ends the intruder's session.
    const owner = await h.signIn(email);
    const replaced = await request(h.app)
      .put('/console/account/password')
      .set(owner.headers)
      .send({ password: `mine ${PASSWORD}` });
    expect(replaced.body.data).toEqual({ passwordSet: true, otherSessionsEnded: 1 });
    expectError(await session(intruder.headers), 401, 'unauthorized');

    h.clock.advance(15 * 60_000 + 1_000);
    expectError(
      await request(h.app)
        .put('/console/account/password')
        .set(owner.headers)
        .send({ password: `other ${PASSWORD}` }),
      400,
      'invalid_request',
    );
  });

  it('slows guessing: the eleventh try at one address in 15 minutes is 429 with Retry-After', async () => {
    const email = newEmail();
    for (let attempt = 1; attempt <= 10; attempt++) {
      expectError(
        await request(h.app)
          .post('/console/sign-in/password')
          .send({ email, password: `guess ${attempt}` }),
        401,
        'invalid_credentials',
      );
    }
    const limited = await request(h.app).post('/console/sign-in/password').send({ email, password: 'guess 11' });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.get('Retry-After'))).toBeGreaterThan(800);
  });
});

describe('sessions', () => {
  it('asks every change for the CSRF token, never a read', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const person = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: restaurant.id } }]);
    const cookieOnly = { Cookie: person.headers.Cookie! };
    expect((await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(cookieOnly)).status).toBe(200);
    const patch = (headers: Record<string, string>) =>
      request(h.app).patch(`/console/restaurants/${restaurant.id}`).set(headers).send({ houseNotes: 'Closed on Mondays' });
    expectError(await patch(cookieOnly), 403, 'csrf_token_invalid');
    expectError(await patch({ ...cookieOnly, 'X-CSRF-Token': 'x'.repeat(32) }), 403, 'csrf_token_invalid');
    expect(
      (await h.deps.db.selectFrom('restaurants').select('house_notes').where('id', '=', restaurant.id).executeTakeFirstOrThrow())
        .house_notes,
    ).toBeNull();
    expect((await patch(person.headers)).status).toBe(200);
  });

  it('signs out this browser, or every browser', async () => {
    const person = await h.signIn(newEmail());
    const other = await h.signIn(person.session.account!.email);
    const third = await h.signIn(person.session.account!.email);

    const out = await request(h.app).delete('/console/session').set(person.headers);
    expect(out.status).toBe(200);
    expect(cookieOf(out)).toMatch(/^console_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/);
    const ended = await session(person.headers);
    expectError(ended, 401, 'unauthorized');
    expect(ended.body.error.message).toBe('Your session has ended. Sign in again.');
    expect((await session(other.headers)).status).toBe(200);

    // A sign-in link still unused in the mailbox is a way in too.
    await request(h.app).post('/console/sign-in/link').send({ email: person.session.account!.email }).expect(202);
    const token = linkToken((await h.mailbox.nextMailTo(person.session.account!.email)).text);

    const everywhere = await request(h.app).post('/console/session/sign-out-everywhere').set(other.headers);
    expect(everywhere.body.data).toEqual({ signedOut: true, sessionsEnded: 2 });
    expectError(await session(other.headers), 401, 'unauthorized');
    expectError(await session(third.headers), 401, 'unauthorized');
    expectError(await request(h.app).post('/console/sign-in/link/redeem').send({ token }), 401, 'invalid_credentials');
  });

  it('ends a session at its expiry', async () => {
    const person = await h.signIn(newEmail());
    expect((await session(person.headers)).status).toBe(200);
    h.clock.advance(3600_000 + 1_000);
    expectError(await session(person.headers), 401, 'unauthorized');
  });

  it('reads memberships on every request: removed from a team, at once no longer let in', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const owner = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: restaurant.id } }]);
    const member = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: restaurant.id }, role: 'member' }]);
    expect((await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(member.headers)).status).toBe(200);
    await request(h.app).delete(`/console/restaurants/${restaurant.id}/members/${member.accountId}`).set(owner.headers).expect(200);
    expectError(await request(h.app).get(`/console/restaurants/${restaurant.id}`).set(member.headers), 404, 'not_found');
  });

  it('refuses to invite someone on the team already (409), sending nothing and keeping their role', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const owner = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: restaurant.id } }]);
    const email = newEmail();
    const member = await h.signIn(email, [{ owner: { kind: 'restaurant', id: restaurant.id }, role: 'member' }]);
    const invite = () =>
      request(h.app).post(`/console/restaurants/${restaurant.id}/members`).set(owner.headers).send({ email, role: 'owner' });
    expectError(await invite(), 409, 'conflict', 'email');
    const members = await request(h.app).get(`/console/restaurants/${restaurant.id}/members`).set(owner.headers).expect(200);
    expect(members.body.data.find((m: { accountId: string }) => m.accountId === member.accountId)).toMatchObject({ role: 'member' });
  });

  it('keeps a team its last owner, and removes a member of a team that has no owner yet', async () => {
    const restaurant = await seedRestaurant(h.deps);
    const owner = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: restaurant.id } }]);
    const path = (accountId: string) => `/console/restaurants/${restaurant.id}/members/${accountId}`;
    expectError(await request(h.app).delete(path(owner.accountId)).set(owner.headers), 409, 'conflict');

    const unowned = await seedRestaurant(h.deps);
    const member = await h.signIn(newEmail(), [{ owner: { kind: 'restaurant', id: unowned.id }, role: 'member' }]);
    await request(h.app).delete(`/console/restaurants/${unowned.id}/members/${member.accountId}`).set(h.admin).expect(200);
  });

  it('is Secure and __Host- behind https', async () => {
    const sessions = new Sessions(h.deps.db, { publicUrl: 'https://dashboard.example.com', ttlMs: 60_000 });
    const person = await h.signIn(newEmail());
    const headers: string[] = [];
    const res = { append: (_name: string, value: string) => headers.push(value) } as unknown as Parameters<Sessions['start']>[0];
    await sessions.start(
      res,
      await h.deps.db.selectFrom('accounts').selectAll().where('id', '=', person.accountId).executeTakeFirstOrThrow(),
      new Date(),
      false,
    );
    expect(headers[0]).toMatch(/^__Host-console_session=[\w-]{43}; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/);
  });

  it('tells who is signed in: nobody is an answer, not an error', async () => {
    const person = await h.signIn(newEmail());
    expect((await request(h.app).get('/console/session').set(person.headers)).body.data.account.id).toBe(person.accountId);
    expect((await request(h.app).get('/console/session')).body).toEqual({ data: null });
    await request(h.app).delete('/console/session').set(person.headers).expect(200);
    expect((await request(h.app).get('/console/session').set(person.headers)).body).toEqual({ data: null });
    expectError(await request(h.app).get('/console/session').set({ Authorization: 'Bearer wrong' }), 401, 'unauthorized');
  });

  it('the admin token is the operator, with no session to end', async () => {
    const res = await request(h.app).get('/console/session').set(h.admin);
    expect(res.body.data).toEqual({ operator: true, account: null, memberships: [], csrfToken: null, expiresAt: null });
    expectError(await request(h.app).delete('/console/session').set(h.admin), 403, 'forbidden');
  });
});

describe('housekeeping', () => {
  it('forgets sessions and sign-in links past their expiry, and nothing else', async () => {
    const { purgeExpiredSignIns } = await import('./sessions.repository.js');
    const person = await h.signIn(newEmail());
    const later = new Date(h.deps.now().getTime() + 2 * 3600_000);
    const before = await h.deps.db.selectFrom('account_sessions').select('token_hash').where('account_id', '=', person.accountId).execute();
    expect(before).toHaveLength(1);
    await purgeExpiredSignIns(h.deps.db, h.deps.now());
    expect(
      await h.deps.db.selectFrom('account_sessions').select('token_hash').where('account_id', '=', person.accountId).execute(),
    ).toHaveLength(1);
    await purgeExpiredSignIns(h.deps.db, later);
    expect(
      await h.deps.db.selectFrom('account_sessions').select('token_hash').where('account_id', '=', person.accountId).execute(),
    ).toHaveLength(0);
    expect(
      await h.deps.db.selectFrom('sign_in_links').select('token_hash').where('account_id', '=', person.accountId).execute(),
    ).toHaveLength(0);
  });
});
