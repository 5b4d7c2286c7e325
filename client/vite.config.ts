/**
 * One Vite configuration for both builds: `vite build` makes the browser bundle (dist/client,
 * hashed files and a manifest the server reads), `vite build --ssr` bundles the Node server and
 * its command-line tools (dist/server), leaving node_modules external.
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

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        root,
        publicDir: false,
        logLevel: 'warn',
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
            },
            output: { format: 'es', entryFileNames: '[name].js' },
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
