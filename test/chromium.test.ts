import t from 'tap';

t.test('a Chromium that cannot be launched fails the browser test with one line saying what to install', async (t) => {
  process.env.CHROMIUM_PATH = '/nonexistent/chromium';
  t.teardown(() => {
    delete process.env.CHROMIUM_PATH;
  });
  const { launchChromium } = await import('./support/chromium.ts');
  const error = await launchChromium().then(
    () => undefined,
    (error: unknown) => error,
  );
  t.ok(error instanceof Error, 'the launch is refused, not skipped');
  const message = (error as Error).message;
  t.notOk(message.includes('\n'), 'one line');
  t.match(message, /apt-get install chromium/);
  t.match(message, /CHROMIUM_PATH/);
  t.match(message, /@sparticuz\/chromium/);
  t.match(message, /\/nonexistent\/chromium/, 'names what it tried');
});
