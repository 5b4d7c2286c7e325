import t from 'tap';
import { loadConfig } from '../src/config.ts';

t.test('defaults give the embedded database on port 3000', async (t) => {
  const config = loadConfig({});
  t.equal(config.port, 3000);
  t.equal(config.host, '0.0.0.0');
  t.equal(config.databaseUrl, undefined);
  t.equal(config.dataDir, './data');
  t.equal(config.dashboardAuth, 'session');
  t.same(config.resourceSeed, { onsite: 2, dropoff: 2 }, 'two vans and two bays unless told');
  t.equal(config.trustProxy, false);
  t.equal(config.publicOrigin, undefined, 'without PUBLIC_URL, writes are checked against the Host the browser addressed');
});

t.test('values are read and converted', async (t) => {
  const config = loadConfig({ PORT: '8080', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', BOOKING_SLOT_CAPACITY: '5', DASHBOARD_AUTH: 'prompt', PUBLIC_URL: 'https://valet.example.nz/' });
  t.equal(config.port, 8080);
  t.equal(config.trustProxy, '10.0.0.0/8, 127.0.0.1');
  t.same(config.resourceSeed, { onsite: 5, dropoff: 5 }, 'the old name seeds that many of each');
  t.same(loadConfig({ ONSITE_TEAMS: '3', DROPOFF_BAYS: '0' }).resourceSeed, { onsite: 3, dropoff: 0 }, 'vans and bays apart; no bays: no drop-offs');
  t.equal(config.dashboardAuth, 'prompt');
  t.equal(config.business.publicUrl, 'https://valet.example.nz');
  t.equal(config.publicOrigin, 'https://valet.example.nz');
});

t.test('without PUBLIC_URL, links name the port the server listens on', async (t) => {
  t.equal(loadConfig({ PORT: '8080' }).business.publicUrl, 'http://localhost:8080');
  t.equal(loadConfig({}).business.publicUrl, 'http://localhost:3000');
  t.equal(loadConfig({ PORT: '8080' }).publicOrigin, undefined, 'no origin is enforced');
});

t.test('a bad value stops start-up with one line naming the variable', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT .*"eighty"/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT/],
    [{ DASHBOARD_AUTH: 'open' }, /^Invalid configuration: DASHBOARD_AUTH is not one of the allowed values/],
    [{ BOOKING_SLOT_CAPACITY: '0' }, /^Invalid configuration: BOOKING_SLOT_CAPACITY/],
    [{ ONSITE_TEAMS: '-1' }, /^Invalid configuration: ONSITE_TEAMS/],
    [{ DROPOFF_BAYS: 'two' }, /^Invalid configuration: DROPOFF_BAYS/],
    [{ DATABASE_URL: 'mysql://localhost/db' }, /^Invalid configuration: DATABASE_URL/],
    [{ NODE_ENV: 'staging' }, /^Invalid configuration: NODE_ENV/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL/],
    [{ ADMIN_PASSWORD_HASH: 'plain-text' }, /^Invalid configuration: ADMIN_PASSWORD_HASH/],
  ];
  for (const [env, pattern] of cases) {
    t.throws(() => loadConfig(env), { name: 'ConfigError', message: pattern }, JSON.stringify(env));
  }
});

t.test('secrets are never echoed in configuration errors', async (t) => {
  const messageOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      return (err as Error).message;
    }
    return 'no error';
  };
  const short = messageOf({ ADMIN_PASSWORD: 'short' });
  t.match(short, /^Invalid configuration: ADMIN_PASSWORD/);
  t.notMatch(short, /short"/);
  const url = messageOf({ DATABASE_URL: 'postgres:/user:secret@host' });
  t.match(url, /^Invalid configuration: DATABASE_URL/);
  t.notMatch(url, /secret/);
});

t.test('an admin hash weaker than OWASP minimum is refused', async (t) => {
  const weak = '$argon2id$v=19$m=4096,t=1,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNo';
  t.throws(() => loadConfig({ ADMIN_PASSWORD_HASH: weak }), /OWASP/);
  const strong = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNo';
  t.equal(loadConfig({ ADMIN_PASSWORD_HASH: strong }).adminPasswordHash, strong);
});

t.test('retention: two years and ninety days unless told, 0 keeps, bad values refused', async (t) => {
  t.same(loadConfig({}).retention, { months: 24, emailBodyDays: 90 });
  t.same(loadConfig({ RETENTION_MONTHS: '0', RETENTION_EMAIL_BODY_DAYS: '0' }).retention, { months: 0, emailBodyDays: 0 }, '0 turns each off');
  t.same(loadConfig({ RETENTION_MONTHS: '84', RETENTION_EMAIL_BODY_DAYS: '30' }).retention, { months: 84, emailBodyDays: 30 });
  t.throws(() => loadConfig({ RETENTION_MONTHS: '-1' }), /RETENTION_MONTHS/);
  t.throws(() => loadConfig({ RETENTION_MONTHS: 'two years' }), /RETENTION_MONTHS/);
  t.throws(() => loadConfig({ RETENTION_EMAIL_BODY_DAYS: 'ninety' }), /RETENTION_EMAIL_BODY_DAYS/);
});
