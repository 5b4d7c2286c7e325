/**
 * Issue 22 with issue 23's rule: a staff invitation's link is a credential. The invitee receives it
 * whole; once the e-mail has been handed to the SMTP server the outbox keeps only its masked form,
 * so a backup or a staff session taken later holds no usable link.
 */
import t from 'tap';
import { buildTestApp, forEachBackend, login } from './helper.ts';
import { mailEnv, to } from './support/mail.ts';
import { startSmtp, until } from './support/smtp.ts';

await forEachBackend(t, async (t, backend) => {
  const smtp = await startSmtp(t);
  const app = await buildTestApp(t, { backend, env: mailEnv(smtp) });
  const cookie = await login(app);

  const invited = await app.inject({
    method: 'POST',
    url: '/v1/staff-members',
    headers: { cookie },
    payload: { name: 'Hemi Walker', email: 'hemi.invited@example.co.nz', role: 'staff' },
  });
  t.equal(invited.statusCode, 201);
  await until(() => smtp.received.some((m) => to(m).includes('hemi.invited@example.co.nz')), 'the invitation delivered');
  const delivered = smtp.received.find((m) => to(m).includes('hemi.invited@example.co.nz'))!;
  const token = /\/dashboard\/invitation\/([A-Za-z0-9_-]{20,})/.exec(delivered.text!)?.[1];
  t.ok(token, 'the delivered e-mail carries the whole link');
  t.match(String(delivered.html), `/dashboard/invitation/${token}`, 'in its HTML too');

  const row = async () => app.db.selectFrom('outbox_emails').selectAll().where('to_address', '=', 'hemi.invited@example.co.nz').executeTakeFirstOrThrow();
  await until(async () => (await row()).status === 'sent', 'the row marked sent');
  const stored = await row();
  t.notMatch(stored.text_body, token!, 'the stored text no longer holds the token');
  t.notMatch(stored.html_body, token!, 'nor the stored HTML');
  t.match(stored.text_body, '/dashboard/invitation/[hidden]', 'the link is kept masked');

  t.equal((await app.inject({ url: `/dashboard/invitation/${token}` })).statusCode, 200, 'the delivered link still opens the form');
});
