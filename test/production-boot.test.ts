/**
 * The production build boots from only what the Dockerfile's final stage ships: the test reads
 * the final stage's COPY lines, assembles exactly those files in a temporary directory (installing
 * production dependencies as the deps stage does), starts `CMD`, and stops it with SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { embeddedNodeFlags, NODE_MAJOR, POSTGRES_NODE_FLAGS, ROOT_DIR, SERVER_ENTRY, SERVER_MALLOC_ENV, serverNodeFlags } from '../src/paths.ts';
import { createServerDatabase, entryScriptOf, TEST_ADMIN_PASSWORD } from './helper.ts';
import { freePort, waitFor } from './support/server-process.ts';

interface FinalStage {
  copies: { from: string | undefined; sources: string[]; target: string }[];
  user: string | undefined;
  cmd: string[];
  env: Record<string, string>;
  /** The major version of the Node its image is built on (`FROM node:24-…`). */
  nodeMajor: number;
}

function parseFinalStage(dockerfile: string): FinalStage {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim());
  const final = lines.slice(lines.findLastIndex((line) => /^FROM\s/i.test(line)));
  const nodeMajor = Number(/^FROM\s+node:(\d+)/i.exec(final[0]!)?.[1]);
  const stage: FinalStage = { copies: [], user: undefined, cmd: [], env: {}, nodeMajor };
  for (const line of final) {
    const [instruction, ...rest] = line.split(/\s+/);
    if (/^COPY$/i.test(instruction ?? '')) {
      const from = rest.find((arg) => arg.startsWith('--from='))?.slice('--from='.length);
      const paths = rest.filter((arg) => !arg.startsWith('--'));
      stage.copies.push({ from, sources: paths.slice(0, -1), target: paths.at(-1)! });
    } else if (/^ENV$/i.test(instruction ?? '')) {
      for (const pair of rest) {
        const [name, ...value] = pair.split('=');
        stage.env[name!] = value.join('=');
      }
    } else if (/^USER$/i.test(instruction ?? '')) {
      stage.user = rest[0];
    } else if (/^CMD$/i.test(instruction ?? '')) {
      stage.cmd = JSON.parse(rest.join(' '));
    }
  }
  return stage;
}

t.test('the Docker image boots from its final stage alone and shuts down gracefully', async (t) => {
  const stage = parseFinalStage(await readFile(path.join(ROOT_DIR, 'Dockerfile'), 'utf8'));
  t.equal(stage.user, 'node', 'runs as the non-root node user');
  t.ok(stage.nodeMajor >= 20, `the image runs an official Node image (node:${stage.nodeMajor})`);
  t.same(stage.cmd, ['node', ...embeddedNodeFlags(stage.nodeMajor), SERVER_ENTRY], "CMD runs node directly, with the flags npm start and the benchmarks use on the embedded database on the image's Node");
  // The compose file's app services run on PostgreSQL: its flags, written as JSON arrays.
  const composeCommands = (await readFile(path.join(ROOT_DIR, 'docker-compose.yml'), 'utf8'))
    .split('\n')
    .map((line) => /^\s+command: (\[.*\])$/.exec(line)?.[1])
    .filter((command): command is string => command !== undefined && command.includes(SERVER_ENTRY))
    .map((command) => JSON.parse(command) as string[]);
  t.same(composeCommands, [['node', ...POSTGRES_NODE_FLAGS, SERVER_ENTRY], ['node', ...POSTGRES_NODE_FLAGS, SERVER_ENTRY]], 'both compose app services run with the PostgreSQL flags');
  t.match(stage.env, SERVER_MALLOC_ENV, 'and the allocator settings they use');

  const app = await mkdtemp(path.join(tmpdir(), 'valet-image-'));
  t.teardown(() => rm(app, { recursive: true, force: true }));
  for (const copy of stage.copies) {
    if (copy.from === 'deps') {
      t.same(copy.sources, ['/app/node_modules'], 'the deps stage provides node_modules');
      const install = spawnSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
      t.equal(install.status, 0, `npm ci --omit=dev: ${install.stderr}`);
    } else if (copy.from === 'build') {
      for (const source of copy.sources) {
        t.match(source, /^\/app\//, 'build outputs come from /app');
        await cp(path.join(ROOT_DIR, source.replace(/^\/app\//, '')), path.join(app, copy.target), { recursive: true });
      }
    } else {
      t.equal(copy.from, undefined, `unknown stage ${copy.from}`);
      for (const source of copy.sources) {
        const destination = copy.target.endsWith('/') ? path.join(app, copy.target, source) : path.join(app, copy.target);
        await cp(path.join(ROOT_DIR, source), destination, { recursive: true });
      }
    }
  }

  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    // The image's allocator settings; its PORT, HOST and DATA_DIR are this test's own.
    ...Object.fromEntries(Object.entries(stage.env).filter(([name]) => name.startsWith('MALLOC_'))),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
  };
  if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) {
    env.DATABASE_URL = await createServerDatabase(t);
    env.BACKUP_DIR = path.join(app, 'backups');
  } else {
    env.DATA_DIR = path.join(app, 'data');
  }

  // The CMD as it is on the image's Node; on another (this machine's), with that Node's flags, as
  // npm start would choose them (Node 22 refuses Node 24's --no-wasm-inlining).
  const command = NODE_MAJOR === stage.nodeMajor ? stage.cmd : ['node', ...embeddedNodeFlags(), SERVER_ENTRY];
  const server = spawn(command[0]!, command.slice(1), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
  });

  const base = `http://127.0.0.1:${port}`;
  // A generous bound: the rest of the suite runs beside it on two cores, and a fresh database is
  // migrated first (30 s ran out on a busy machine); a server that dies ends the wait at once.
  const ready = (await waitFor(async () => server.exitCode !== null || (await fetch(`${base}/readyz`)).status === 200, 120_000)) && server.exitCode === null;
  t.ok(ready, `ready${ready ? '' : `: ${output}`}`);

  const home = await fetch(`${base}/`);
  t.equal(home.status, 200);
  t.match(await home.text(), /<h1/);
  const health = await fetch(`${base}/healthz`);
  t.equal(health.status, 200);
  const script = entryScriptOf(await (await fetch(`${base}/`)).text());
  t.equal((await fetch(`${base}${script}`)).status, 200, 'the browser bundle is served');
  const login = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: TEST_ADMIN_PASSWORD }),
  });
  t.equal(login.status, 204);
  t.match(login.headers.get('set-cookie'), /^__Host-session=.*; Secure/);
  // The bundle's backup: on the embedded database, dist/server/backup-copy.js reads a copy of the files in a process of its own.
  const backup = await fetch(`${base}/v1/backups`, { method: 'POST', headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]! } });
  const taken = await backup.text();
  t.equal(backup.status, 201, `the owner takes a backup: ${taken}`);
  t.match(JSON.parse(taken), { name: /^valet-.*\.backup\.gz$/, sizeBytes: Number });
  // Webhooks (issue 44) go to https addresses only in production.
  const hook = await fetch(`${base}/v1/webhooks`, {
    method: 'POST',
    headers: { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://hooks.example.com/valet', events: ['booking.created'] }),
  });
  t.equal(hook.status, 400, 'an http webhook address is refused');
  t.match(await hook.json(), { errors: [{ field: 'url', message: /https/ }] });

  server.kill('SIGTERM');
  // The bound's timer is cleared once the server has exited: left running, it kept this file's
  // process alive for its whole minute (60 s of every CI run, twice).
  let bound: NodeJS.Timeout | undefined;
  const code = await Promise.race([exited, new Promise((resolve) => (bound = setTimeout(() => resolve('timeout'), 60_000)))]);
  clearTimeout(bound);
  t.equal(code, 0, 'exits cleanly on SIGTERM');
});

t.test("the V8 flags a server is started with are flags this Node knows (an unknown one stops it at once)", async (t) => {
  for (const env of [{}, { DATABASE_URL: 'postgres://unused' }]) {
    const flags = serverNodeFlags(env);
    const run = spawnSync(process.execPath, [...flags, '-e', ''], { encoding: 'utf8' });
    t.equal(run.status, 0, `node ${flags.join(' ')}: ${run.stderr}`);
  }
  t.notOk(embeddedNodeFlags(20).includes('--no-wasm-inlining'), 'Node 20 does not inline WebAssembly by default: nothing to turn off');
  t.notOk(embeddedNodeFlags(22).includes('--no-wasm-inlining'), 'Node 22 does not know the flag');
  t.ok(embeddedNodeFlags(24).includes('--no-wasm-inlining'), "Node 24's inlining of WebAssembly is turned off");
});
