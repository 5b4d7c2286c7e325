/**
 * One Vite configuration for both builds: `vite build` makes the browser bundle (dist/client,
 * hashed files and a manifest the server reads), `vite build --ssr` bundles the Node server and
 * its command-line tools (dist/server), leaving node_modules external but for SERVER_BUNDLED.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes a .br and a .gz beside each text file of the bundle, compressed once at their best
 * settings, which @fastify/static (preCompressed) sends to browsers that accept them.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css)$/.test(file)) continue;
        const full = path.join(options.dir!, file);
        const data = readFileSync(full);
        writeFileSync(`${full}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${full}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * V8's explicit compile hint (Chrome 136+) at the top of the entry chunk: its functions (React's,
 * nearly all called to hydrate) are compiled while the file streams in, off the main thread,
 * instead of one by one on first call, in the tasks that hydrate the page.
 */
function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    // On the written file (before precompress reads it): Vite adds its own lines to the top of
    // the entry after generateBundle, and the hint must be the file's first line.
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const full = path.join(options.dir!, chunk.fileName);
        writeFileSync(full, `//# allFunctionsCalledOnLoad\n${readFileSync(full, 'utf8')}`);
      }
    },
  };
}

/**
 * Packages bundled into the server, each with only what it uses, instead of loaded whole from
 * node_modules: each is ES modules (tree-shaken) or large for the little of it the server calls
 * (date-fns' index loads its 300 files, TypeBox's 679, Kysely's 262; nodemailer all its
 * transports). Every module loaded keeps its source and its records in V8's heap for as long as the
 * server runs. Bundled, the embedded database's server starts at 158 and 145 MB (a first start and a
 * later one) instead of 172 and 161 on Node 20, at 187 and 175 instead of 198 and 190 on the
 * image's Node 24, and ends the booking benchmark about 11 MB lower on both (issue 24). The rest
 * stay external: CommonJS that would be bundled whole, native code (argon2), or packages that
 * read their own files (PGlite, pino's worker).
 */
const SERVER_BUNDLED = ['date-fns', '@date-fns/tz', 'typebox', '@fastify/type-provider-typebox', 'kysely', 'nodemailer', 'jsonc-parser'];

/**
 * The server bundle takes node:http as CommonJS. On the image's Node 24 (not on Node 20) an ES
 * import of a built-in module reads every export to build its namespace, and node:http's
 * WebSocket, CloseEvent and MessageEvent are getters that load the fetch library bundled in Node
 * (undici) on first read: `import ... from 'node:http'` anywhere in the process (our direct pages,
 * nodemailer) cost 2.9 MB of heap for classes the server never uses (issue 24). Only the names the
 * bundle imports are read.
 */
function httpWithoutUndici(): Plugin {
  const PREFIX = '\0cjs-builtin:';
  return {
    name: 'http-without-undici',
    enforce: 'pre',
    apply: 'build',
    resolveId(id) {
      const name = id.replace(/^node:/, '');
      return name === 'http' || name === 'https' ? PREFIX + name : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const name = id.slice(PREFIX.length);
      return [
        "import { createRequire } from 'node:module';",
        `const builtin = createRequire(import.meta.url)('node:${name}');`,
        'export default builtin;',
        'export const { createServer, request, get, Agent } = builtin;',
      ].join('\n');
    },
  };
}

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        root,
        publicDir: false,
        logLevel: 'warn',
        plugins: [httpWithoutUndici()],
        ssr: { noExternal: SERVER_BUNDLED },
        build: {
          ssr: true,
          outDir: path.join(root, 'dist/server'),
          emptyOutDir: true,
          target: 'node20',
          minify: false,
          sourcemap: true,
          rollupOptions: {
            input: {
              server: path.join(root, 'src/server.ts'),
              migrate: path.join(root, 'src/cli/migrate.ts'),
              'set-password': path.join(root, 'src/cli/set-password.ts'),
              'hash-password': path.join(root, 'src/cli/hash-password.ts'),
              backup: path.join(root, 'src/cli/backup.ts'),
              'backup-copy': path.join(root, 'src/cli/backup-copy.ts'),
              restore: path.join(root, 'src/cli/restore.ts'),
              'move-to-postgres': path.join(root, 'src/cli/move-to-postgres.ts'),
            },
            // ASCII only, without comments (the source maps keep both): V8 keeps a script's source for
            // as long as the server runs, in two bytes a character if one character needs them (an
            // en dash in a message or a comment): 1.1 MB more for the server's main chunk alone.
            output: { format: 'es', entryFileNames: '[name].js', charset: 'ascii', comments: false },
          },
        },
      }
    : {
        root: path.join(root, 'client'),
        // Touch icons, copied as they are (their names are fixed by convention, not hashed).
        publicDir: 'public',
        plugins: [react(), compileHints(), precompress()],
        logLevel: 'warn',
        build: {
          outDir: path.join(root, 'dist/client'),
          emptyOutDir: true,
          manifest: true,
          target: 'es2022',
          // The server writes <link rel="modulepreload"> for each page's chunks itself, so Vite's
          // preload helper (about 1 KB on every page) is not needed.
          modulePreload: false,
          rollupOptions: {
            input: path.join(root, 'client/entry-client.tsx'),
            // Stylesheets by hash alone: the entry lists every page chunk's stylesheets for Vite's
            // loader, and shorter names keep that list about 0.1 KB smaller on every page.
            output: { assetFileNames: (asset) => (asset.names[0]?.endsWith('.css') ? 'assets/[hash].css' : 'assets/[name]-[hash][extname]') },
          },
        },
      },
);
