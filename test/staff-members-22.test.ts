/**
 * Issue 22, "A sign-in for each member of staff": the owner's configured password alone still
 * signs in; the owner invites a member (an e-mail through the outbox with a single-use link valid
 * for 48 hours, only the token's hash stored); the invitation page sets the password once, without
 * JavaScript; the member signs in with e-mail and password (a wrong address and a wrong password
 * get the same 401); owner-only actions answer staff 403; disabling ends the member's sessions at
 * once; a password change ends their other sessions; history, notes and status changes record the
 * member's name; and the database's own constraints hold.
 */
import { createHash } from 'node:crypto';
import argon2 from 'argon2';
import t from 'tap';
import { sql } from 'kysely';
import type { App } from '../src/app.ts';
import { buildTestApp, forEachBackend, login, TEST_ADMIN_PASSWORD } from './helper.ts';
import { book } from './support/mail.ts';

// Argon2 at full cost for the invitations and password changes, on both backends.
t.setTimeout(600_000);

const MEMBER_PASSWORD = 'violet kettle harbour 42';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let memberHash: Promise<string> | undefined;
const cheapHash = () => (memberHash ??= argon2.hash(MEMBER_PASSWORD, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 }));

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function signIn(app: App, payload: Record<string, string>) {
  return app.inject({ method: 'POST', url: '/v1/auth/login', payload });
}

async function memberCookie(app: App, email: string, password = MEMBER_PASSWORD): Promise<string> {
  const res = await signIn(app, { email, password });
  if (res.statusCode !== 204) throw new Error(`member sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'session')!;
  return `session=${cookie.value}`;
}

/** The invitation token from the newest invitation e-mail to `email`, as stored in the outbox. */
async function invitationToken(app: App, email: string): Promise<string> {
  const rows = await app.db.selectFrom('outbox_emails').selectAll().where('kind', '=', 'staff-invitation').where('to_address', '=', email).orderBy('created_at', 'desc').execute();
  const match = /\/dashboard\/invitation\/([A-Za-z0-9_-]{43})/.exec(rows[0]?.text_body ?? '');
  if (!match) throw new Error(`no invitation e-mail to ${email}`);
  return match[1]!;
}

forEachBackend(t, async (t, backend) => {
  const app = await buildTestApp(t, { backend });
  const owner = await login(app);
  const as = (cookie: string) => ({
    get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie } }),
    post: (url: string, payload?: object) => app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) }),
    patch: (url: string, payload: object) => app.inject({ method: 'PATCH', url, headers: { cookie }, payload }),
  });
  const asOwner = as(owner);

  async function invite(name: string, email: string, role: 'owner' | 'staff' = 'staff') {
    const res = await asOwner.post('/v1/staff-members', { name, email, role });
    if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
    return res.json() as { id: string; status: string; email: string };
  }

  async function accept(token: string, password = MEMBER_PASSWORD, confirmPassword = password) {
    return app.inject({ method: 'POST', url: `/dashboard/invitation/${token}`, headers: FORM, payload: form({ password, confirmPassword }) });
  }

  /**
   * A member who has set MEMBER_PASSWORD. The invitation page is proven in its own tests (and the
   * browser's); here the password is stored straight away, hashed once at OWASP's minimum cost
   * (as the helper does for the owner's), so that every sign-in does not cost a full argon2 hash
   * on a busy machine.
   */
  async function activeMember(name: string, email: string, role: 'owner' | 'staff' = 'staff') {
    const member = await invite(name, email, role);
    await app.db.updateTable('staff_members').set({ password_hash: await cheapHash(), password_changed_at: new Date() }).where('id', '=', member.id).execute();
    return member;
  }

  t.test('the owner password alone still signs in, as the owner, with the name given', async (t) => {
    const res = await signIn(app, { password: TEST_ADMIN_PASSWORD, name: 'Mere' });
    t.equal(res.statusCode, 204);
    const rows = await app.db.selectFrom('staff_sessions').select(['member_id', 'staff_name']).where('staff_name', '=', 'Mere').execute();
    t.same(rows, [{ member_id: null, staff_name: 'Mere' }], 'an owner session records no member');
    t.equal((await asOwner.get('/v1/staff-members')).statusCode, 200, 'the owner manages accounts');
    t.same((await signIn(app, { password: 'wrong password' })).json(), { message: 'Incorrect password', errors: [] });
    t.equal((await signIn(app, { email: '', password: TEST_ADMIN_PASSWORD })).statusCode, 204, 'an empty e-mail is the owner path');
  });

  t.test('an invitation: the account, an e-mail through the outbox with a single-use link, only its hash stored', async (t) => {
    const member = await invite('Tama Ngata', 'tama@valet.test');
    t.match(member, { name: 'Tama Ngata', email: 'tama@valet.test', role: 'staff', status: 'invited', invitationExpiresAt: String });
    const token = await invitationToken(app, 'tama@valet.test');
    const stored = await app.db.selectFrom('staff_invitations').selectAll().where('member_id', '=', member.id).execute();
    t.equal(stored.length, 1);
    t.equal(stored[0]!.token_hash, createHash('sha256').update(token).digest('hex'), 'the SHA-256 of the token is stored');
    t.equal(stored[0]!.expires_at.getTime() - stored[0]!.created_at.getTime(), 48 * 3_600_000, 'valid for 48 hours');
    const dump = JSON.stringify(await app.db.selectFrom('staff_invitations').selectAll().execute());
    t.notOk(dump.includes(token), 'the token itself is not');

    const email = await app.db.selectFrom('outbox_emails').select(['id', 'subject', 'status']).where('kind', '=', 'staff-invitation').where('to_address', '=', 'tama@valet.test').executeTakeFirstOrThrow();
    t.match(email.subject, /staff sign-in/);
    const read = (await asOwner.get(`/v1/emails/${email.id}`)).json();
    t.notOk(JSON.stringify(read).includes(token), 'staff reading the outbox never see the link');
    t.match(read.text, /\/dashboard\/invitation\/\[hidden\]/);

    const page = await app.inject({ method: 'GET', url: `/dashboard/invitation/${token}` });
    t.equal(page.statusCode, 200);
    t.equal(page.headers['cache-control'], 'no-store');
    t.match(page.body, /Set your password/);
    t.match(page.body, /name="confirmPassword"/);

    t.equal((await signIn(app, { email: 'tama@valet.test', password: MEMBER_PASSWORD })).statusCode, 401, 'no sign-in before the password is set');

    const differ = await accept(token, MEMBER_PASSWORD, `${MEMBER_PASSWORD}!`);
    t.equal(differ.statusCode, 400);
    t.match(differ.body, /The two passwords are not the same/);
    const weak = await accept(token, 'password1234');
    t.equal(weak.statusCode, 400);
    t.match(weak.body, /most common passwords/);
    const short = await accept(token, 'short');
    t.match(short.body, /at least 12 characters/);
    t.equal((await app.inject({ method: 'POST', url: `/dashboard/invitation/${token}`, payload: { password: MEMBER_PASSWORD, confirmPassword: MEMBER_PASSWORD } })).statusCode, 415, 'a form post only');

    const done = await accept(token);
    t.equal(done.statusCode, 200);
    t.match(done.body, /Your password is set/);
    const row = await app.db.selectFrom('staff_members').selectAll().where('id', '=', member.id).executeTakeFirstOrThrow();
    t.match(row.password_hash, /^\$argon2id\$/);

    const again = await accept(token, 'another long passphrase 7');
    t.equal(again.statusCode, 410, 'single use');
    t.match(again.body, /expired or has already been used/);
    t.equal((await app.inject({ method: 'GET', url: `/dashboard/invitation/${token}` })).statusCode, 410);
    t.equal((await signIn(app, { email: 'tama@valet.test', password: 'another long passphrase 7' })).statusCode, 401, 'the second post set nothing');

    const listed = (await asOwner.get('/v1/staff-members')).json().members;
    t.match(listed.find((m: { id: string }) => m.id === member.id), { status: 'active', invitationExpiresAt: null });
  });

  t.test('an expired or withdrawn invitation gets the clear page and sets nothing', async (t) => {
    const member = await invite('Late Comer', 'late@valet.test');
    const token = await invitationToken(app, 'late@valet.test');
    // 49 hours ago, valid 48: expired an hour ago.
    const now = app.now().getTime();
    await sql`update staff_invitations set created_at = ${new Date(now - 49 * 3_600_000)}, expires_at = ${new Date(now - 3_600_000)} where member_id = ${member.id}`.execute(
      app.db,
    );
    const page = await app.inject({ method: 'GET', url: `/dashboard/invitation/${token}` });
    t.equal(page.statusCode, 410);
    t.match(page.body, /This link no longer works/);
    t.equal((await accept(token)).statusCode, 410);
    t.equal((await app.db.selectFrom('staff_members').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow()).password_hash, null);

    const reinvited = await asOwner.post(`/v1/staff-members/${member.id}/invitation`);
    t.equal(reinvited.statusCode, 200);
    const fresh = await invitationToken(app, 'late@valet.test');
    t.not(fresh, token);
    const third = await asOwner.post(`/v1/staff-members/${member.id}/invitation`);
    t.equal(third.statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: `/dashboard/invitation/${fresh}` })).statusCode, 410, 'a new invitation withdraws the earlier one');
    t.equal((await app.inject({ method: 'GET', url: '/dashboard/invitation/not-a-token' })).statusCode, 410);
    t.equal((await asOwner.post(`/v1/staff-members/${UNKNOWN}/invitation`)).statusCode, 404);
  });

  t.test('e-mail and password sign a member in; a wrong address and a wrong password get the same answer', async (t) => {
    const member = await activeMember('Aroha Tane', 'aroha@valet.test');
    const ok = await signIn(app, { email: 'AROHA@Valet.test ', password: MEMBER_PASSWORD });
    t.equal(ok.statusCode, 204, 'the address in any case');
    const id = ok.cookies.find((c) => c.name === 'session')!.value;
    const session = await app.db.selectFrom('staff_sessions').selectAll().where('id_hash', '=', createHash('sha256').update(id).digest('hex')).executeTakeFirstOrThrow();
    t.equal(session.member_id, member.id);

    const wrongPassword = await signIn(app, { email: 'aroha@valet.test', password: 'not her password at all' });
    const wrongEmail = await signIn(app, { email: 'nobody@valet.test', password: MEMBER_PASSWORD });
    const ownerPasswordAsMember = await signIn(app, { email: 'nobody@valet.test', password: TEST_ADMIN_PASSWORD });
    for (const res of [wrongPassword, wrongEmail, ownerPasswordAsMember]) {
      t.equal(res.statusCode, 401);
      t.same(res.json(), { message: 'Incorrect e-mail or password', errors: [] });
      t.equal(res.headers['set-cookie'], undefined);
    }
    t.equal((await signIn(app, { email: 'not an address'.repeat(30), password: 'x' })).statusCode, 400, 'an over-long address is refused by the schema');

    const duplicate = await asOwner.post('/v1/staff-members', { name: 'Copy', email: 'Aroha@VALET.test', role: 'staff' });
    t.equal(duplicate.statusCode, 409);
    t.same(duplicate.json(), { message: 'A member of staff already has this e-mail address', errors: [{ field: 'email', message: 'A member of staff already has this e-mail address' }] });
  });

  t.test('the no-JavaScript sign-in form takes the e-mail too', async (t) => {
    await activeMember('Form User', 'form@valet.test');
    const page = await app.inject({ method: 'GET', url: '/dashboard?email=form%40valet.test' });
    t.match(page.body, /name="email"[^>]*value="form@valet.test"|value="form@valet.test"[^>]*name="email"/);
    const ok = await app.inject({ method: 'POST', url: '/dashboard/login', headers: FORM, payload: form({ email: 'form@valet.test', password: MEMBER_PASSWORD }) });
    t.equal(ok.statusCode, 303);
    const cookie = `session=${ok.cookies.find((c) => c.name === 'session')!.value}`;
    const dashboard = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
    t.match(dashboard.body, /"staffRole":"staff"/);
    t.match(dashboard.body, /"staffName":"Form User"/);
    t.match(dashboard.body, /"staffAccount":true/, 'the dashboard offers the account’s Change password');
    const asOwnerPage = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: owner } });
    t.match(asOwnerPage.body, /"staffAccount":false/, 'the configured owner password is no account');
    const wrong = await app.inject({ method: 'POST', url: '/dashboard/login', headers: FORM, payload: form({ email: 'form@valet.test', password: 'wrong wrong wrong' }) });
    t.equal(wrong.statusCode, 401);
    t.match(wrong.body, /Incorrect e-mail or password/);
    t.match(wrong.body, /value="form@valet.test"/, 'the address stays in the form');
    const ownerForm = await app.inject({ method: 'POST', url: '/dashboard/login', headers: FORM, payload: form({ email: '', name: 'Owner', password: TEST_ADMIN_PASSWORD }) });
    t.equal(ownerForm.statusCode, 303, 'the owner password alone, through the form');
  });

  t.test('owner-only actions are refused to staff with 403 in the error shape', async (t) => {
    const member = await activeMember('Just Staff', 'staff@valet.test');
    const staff = as(await memberCookie(app, 'staff@valet.test'));
    for (const res of [
      await staff.get('/v1/staff-members'),
      await staff.post('/v1/staff-members', { name: 'X', email: 'x@valet.test' }),
      await staff.post('/v1/staff-members', { bogus: true }),
      await staff.patch(`/v1/staff-members/${member.id}`, { role: 'owner' }),
      await staff.post(`/v1/staff-members/${member.id}/invitation`),
    ]) {
      t.equal(res.statusCode, 403);
      t.same(res.json(), { message: 'Only the owner can do this', errors: [] });
    }
    t.equal((await app.db.selectFrom('staff_members').select('role').where('id', '=', member.id).executeTakeFirstOrThrow()).role, 'staff');
    t.equal((await staff.get('/v1/getall-booking')).statusCode, 200, 'staff still work the bookings');

    // A member with the owner role may manage accounts, but not demote or disable themselves.
    const boss = await activeMember('Second Owner', 'boss@valet.test', 'owner');
    const asBoss = as(await memberCookie(app, 'boss@valet.test'));
    t.equal((await asBoss.get('/v1/staff-members')).statusCode, 200);
    t.equal((await asBoss.patch(`/v1/staff-members/${boss.id}`, { disabled: true })).statusCode, 409);
    t.equal((await asBoss.patch(`/v1/staff-members/${boss.id}`, { role: 'staff' })).statusCode, 409);
    t.equal((await asBoss.patch(`/v1/staff-members/${boss.id}`, { name: 'Boss' })).statusCode, 200, 'their own name is fine');
    t.equal((await asOwner.patch(`/v1/staff-members/${UNKNOWN}`, { name: 'Nobody' })).statusCode, 404);
    t.equal((await asOwner.patch(`/v1/staff-members/${member.id}`, {})).statusCode, 400, 'an empty change');
    t.equal((await asOwner.patch(`/v1/staff-members/${member.id}`, { role: 'admin' })).statusCode, 400);
  });

  t.test('disabling a member ends their sessions at once and refuses their sign-in; enabling lets them back', async (t) => {
    const member = await activeMember('Leaving Soon', 'leaving@valet.test');
    const first = as(await memberCookie(app, 'leaving@valet.test'));
    const second = as(await memberCookie(app, 'leaving@valet.test'));
    t.equal((await first.get('/v1/getall-booking')).statusCode, 200);
    const disabled = await asOwner.patch(`/v1/staff-members/${member.id}`, { disabled: true });
    t.equal(disabled.statusCode, 200);
    t.equal(disabled.json().status, 'disabled');
    t.equal((await first.get('/v1/getall-booking')).statusCode, 401, 'signed out at once');
    t.equal((await second.get('/v1/getall-booking')).statusCode, 401);
    t.equal((await app.db.selectFrom('staff_sessions').select('id_hash').where('member_id', '=', member.id).execute()).length, 0, 'their sessions are gone');
    t.equal((await signIn(app, { email: 'leaving@valet.test', password: MEMBER_PASSWORD })).statusCode, 401, 'a disabled account cannot sign in');
    t.equal((await asOwner.post(`/v1/staff-members/${member.id}/invitation`)).statusCode, 409, 'nor be invited again');

    // Even a session row written straight into the table is refused for a disabled member.
    await t.rejects(
      app.db.insertInto('staff_sessions').values({ id_hash: 'f'.repeat(64), expires_at: new Date(Date.now() + 3_600_000), password_fingerprint: 'x', member_id: member.id }).execute(),
      /cannot sign in/,
    );

    t.equal((await asOwner.patch(`/v1/staff-members/${member.id}`, { disabled: false })).json().status, 'active');
    t.equal((await signIn(app, { email: 'leaving@valet.test', password: MEMBER_PASSWORD })).statusCode, 204);
  });

  t.test("a member's password change ends their other sessions; the owner's password is not changed here", async (t) => {
    await activeMember('Changer', 'changer@valet.test');
    const here = as(await memberCookie(app, 'changer@valet.test'));
    const elsewhere = as(await memberCookie(app, 'changer@valet.test'));
    const next = 'a brand new passphrase 9';
    const wrong = await here.post('/v1/account/password', { currentPassword: 'not it at all', newPassword: next, confirmPassword: next });
    t.equal(wrong.statusCode, 400);
    t.match(wrong.json(), { errors: [{ field: 'currentPassword' }] });
    const weak = await here.post('/v1/account/password', { currentPassword: MEMBER_PASSWORD, newPassword: 'password1234', confirmPassword: 'password1234' });
    t.equal(weak.statusCode, 400);
    t.equal((await elsewhere.get('/v1/getall-booking')).statusCode, 200, 'a refused change ends nothing');

    const changed = await here.post('/v1/account/password', { currentPassword: MEMBER_PASSWORD, newPassword: next, confirmPassword: next });
    t.equal(changed.statusCode, 200);
    t.same(changed.json(), { endedSessions: 1 });
    t.equal((await here.get('/v1/getall-booking')).statusCode, 200, 'the session that changed it stays');
    t.equal((await elsewhere.get('/v1/getall-booking')).statusCode, 401, 'the other one ended');
    t.equal((await signIn(app, { email: 'changer@valet.test', password: MEMBER_PASSWORD })).statusCode, 401, 'the old password no longer works');
    t.equal((await signIn(app, { email: 'changer@valet.test', password: next })).statusCode, 204);

    const ownerTry = await asOwner.post('/v1/account/password', { currentPassword: TEST_ADMIN_PASSWORD, newPassword: next, confirmPassword: next });
    t.equal(ownerTry.statusCode, 409);
    t.match(ownerTry.json().message, /set-password/);
  });

  t.test('a password set through a new invitation ends every session of the member', async (t) => {
    const member = await activeMember('Forgetful', 'forgetful@valet.test');
    const old = as(await memberCookie(app, 'forgetful@valet.test'));
    await asOwner.post(`/v1/staff-members/${member.id}/invitation`);
    t.equal((await accept(await invitationToken(app, 'forgetful@valet.test'), 'remembered this time 11')).statusCode, 200);
    t.equal((await old.get('/v1/getall-booking')).statusCode, 401);
    t.equal((await signIn(app, { email: 'forgetful@valet.test', password: 'remembered this time 11' })).statusCode, 204);
  });

  t.test("history, notes and status changes record the member's name", async (t) => {
    await activeMember('Wiremu Detailer', 'wiremu@valet.test');
    const wiremu = as(await memberCookie(app, 'wiremu@valet.test'));
    const booking = await book(app);
    const confirmed = await wiremu.post(`/v1/bookings/${booking.id}/status`, { status: 'confirmed', version: 1 });
    t.equal(confirmed.statusCode, 200);
    t.match(confirmed.json().history, [{ from: 'pending', to: 'confirmed', by: 'Wiremu Detailer' }]);
    const note = await wiremu.post(`/v1/bookings/${booking.id}/notes`, { text: 'Gate code 1234' });
    t.equal(note.statusCode, 201);
    t.equal(note.json().by, 'Wiremu Detailer');
    const rows = await app.db.selectFrom('booking_status_changes').select('changed_by').where('booking_id', '=', booking.id).execute();
    t.same(rows.map((r) => r.changed_by), ['Wiremu Detailer']);
    const notes = await app.db.selectFrom('booking_notes').select('author').where('booking_id', '=', booking.id).execute();
    t.same(notes.map((r) => r.author), ['Wiremu Detailer']);
    const seen = (await asOwner.get(`/v1/bookings/${booking.id}`)).json();
    t.match(seen.history, [{ by: 'Wiremu Detailer' }], 'the dashboard reads who did it');
  });

  t.test('the database keeps the invariants', async (t) => {
    const now = new Date();
    const insert = (values: Record<string, unknown>) =>
      app.db.insertInto('staff_members').values({ name: 'Check', email: `check${Math.random()}@valet.test`, role: 'staff', ...values } as never).execute();
    await t.rejects(insert({ role: 'admin' }), /check/i, 'role owner or staff');
    await t.rejects(insert({ password_hash: 'plain text', password_changed_at: now }), /check/i, 'an argon2id hash');
    await t.rejects(insert({ password_hash: '$argon2id$v=19$m=65536,t=3,p=4$abc$def' }), /check/i, 'a password has its date');
    await t.rejects(insert({ name: ' padded ' }), /check/i);
    await t.rejects(insert({ email: 'no-at-sign' }), /check/i);
    await insert({ email: 'Case@valet.test' });
    await t.rejects(insert({ email: 'case@VALET.test' }), /unique|duplicate/i, 'one account per address in any case');
    const member = await app.db.selectFrom('staff_members').select('id').where('email', '=', 'Case@valet.test').executeTakeFirstOrThrow();
    const invitation = (hours: number, used?: Date) =>
      app.db
        .insertInto('staff_invitations')
        .values({ member_id: member.id, token_hash: createHash('sha256').update(String(Math.random())).digest('hex'), created_at: now, expires_at: new Date(now.getTime() + hours * 3_600_000), used_at: used ?? null })
        .execute();
    await t.rejects(invitation(49), /check/i, 'never longer than 48 hours');
    await t.rejects(invitation(-1), /check/i);
    await t.rejects(invitation(24, new Date(now.getTime() + 25 * 3_600_000)), /check/i, 'not used after it expired');
    await invitation(48);
    await t.rejects(
      app.db.insertInto('staff_invitations').values({ member_id: member.id, token_hash: 'not a hash', created_at: now, expires_at: now }).execute(),
      /check/i,
    );
    await t.rejects(
      app.db.insertInto('staff_sessions').values({ id_hash: 'e'.repeat(64), expires_at: new Date(now.getTime() + 3_600_000), password_fingerprint: 'x', member_id: member.id }).execute(),
      /cannot sign in/,
      'no session for an account without a password',
    );
  });
});
