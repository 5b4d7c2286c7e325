/**
 * Finds a Chromium that playwright-core can launch, so that `npm ci && npm test` works on a machine
 * with nothing but Node: `CHROMIUM_PATH` when set, else Debian's `/usr/bin/chromium`, else the
 * headless Chromium shipped inside the `@sparticuz/chromium` package (unpacked once into the
 * system's temporary folder). When none launches, the test fails with one line saying what to
 * install; a browser test is never skipped.
 */
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The package's flags suit a serverless function. Two would switch off the very browser
// protections (same-origin policy, mixed content) that the tests check the pages against, and
// `--single-process` (needed only inside AWS Lambda's sandbox) ends the browser when its first
// context closes, while each test opens several.
const UNWANTED_ARGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);

export interface ChromiumChoice {
  /** Where this Chromium came from, for messages. */
  source: string;
  options: LaunchOptions;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Unpacks the package's Chromium into a folder named after its version. Test files run in
 * parallel, so each unpacks into a folder of its own and renames it into place: the shared folder
 * only ever appears complete, and a run killed halfway leaves no half-written browser behind.
 */
async function packagedChromium(): Promise<ChromiumChoice> {
  const { default: sparticuz } = await import('@sparticuz/chromium');
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.resolve('@sparticuz/chromium')), 'utf8')) as { version: string };
  const folder = join(tmpdir(), `sparticuz-chromium-${packageJson.version}`);
  if (!existsSync(join(folder, 'chromium'))) {
    const staging = mkdtempSync(`${folder}.partial-`);
    // The package unpacks into os.tmpdir(), which follows TMPDIR at the time of the call.
    const previousTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    try {
      await sparticuz.executablePath();
    } finally {
      if (previousTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmpdir;
    }
    // The package's own fonts.conf names the serverless paths (/tmp/fonts, /var/task): point it at
    // the fonts it shipped, beside the machine's own fonts where there are any.
    writeFileSync(
      join(staging, 'fonts.conf'),
      [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        '<fontconfig>',
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
        `  <dir>${join(folder, 'fonts')}</dir>`,
        `  <cachedir>${join(folder, 'fonts-cache')}</cachedir>`,
        '</fontconfig>',
        '',
      ].join('\n'),
    );
    try {
      renameSync(staging, folder);
    } catch {
      // Another test file got there first; its copy is the same.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return {
    source: `@sparticuz/chromium ${packageJson.version}`,
    options: {
      executablePath: join(folder, 'chromium'),
      args: [...BASE_ARGS, ...sparticuz.args.filter((arg) => !UNWANTED_ARGS.has(arg))],
      env: { ...process.env, FONTCONFIG_FILE: join(folder, 'fonts.conf') },
    },
  };
}

/** The Chromiums to try, in order of preference. */
function candidates(): (() => Promise<ChromiumChoice>)[] {
  const explicit = process.env.CHROMIUM_PATH;
  // A path the developer chose is the only one tried: silently testing another browser would hide their mistake.
  if (explicit) return [async () => ({ source: `CHROMIUM_PATH=${explicit}`, options: { executablePath: explicit, args: BASE_ARGS } })];
  const list: (() => Promise<ChromiumChoice>)[] = [];
  if (isExecutableFile(DEBIAN_CHROMIUM)) list.push(async () => ({ source: DEBIAN_CHROMIUM, options: { executablePath: DEBIAN_CHROMIUM, args: BASE_ARGS } }));
  list.push(packagedChromium);
  return list;
}

let chosen: Promise<ChromiumChoice> | undefined;

async function launchFirst(): Promise<{ choice: ChromiumChoice; browser: Browser }> {
  const failures: string[] = [];
  for (const candidate of candidates()) {
    let choice: ChromiumChoice | undefined;
    try {
      choice = await candidate();
      const options = { headless: true, ...choice.options };
      // A browser that closes while starting is tried once more: in one CI run the packaged
      // Chromium did so once ("Target page, context or browser has been closed") with two test
      // files launching at the same moment; a Chromium that cannot start fails twice.
      const browser = await chromium.launch(options).catch(() => chromium.launch(options));
      return { choice, browser };
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      failures.push(`${choice?.source ?? '@sparticuz/chromium'}: ${reason}`);
    }
  }
  throw new Error(
    `No Chromium could be launched for the browser tests; install one (apt-get install chromium), set CHROMIUM_PATH, or run npm ci to get the devDependency @sparticuz/chromium (tried ${failures.join('; ')})`,
  );
}

/** Launches the first Chromium that works; later launches in the same process reuse that choice. */
export async function launchChromium(): Promise<Browser> {
  if (chosen) return chromium.launch({ headless: true, ...(await chosen).options });
  const first = launchFirst();
  chosen = first.then((result) => result.choice);
  chosen.catch(() => {
    chosen = undefined;
  });
  return (await first).browser;
}

/** The Chromium the browser tests use (launched once to be sure it starts), for tools that start their own: Lighthouse in `npm run bench`. */
export async function chromiumChoice(): Promise<ChromiumChoice> {
  await (await launchChromium()).close();
  return chosen!;
}
