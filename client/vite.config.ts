/**
 * One Vite configuration for both builds: `vite build` makes the browser bundle (dist/client,
 * hashed files and a manifest the server reads), `vite build --ssr` bundles the Node server and
 * its command-line tools (dist/server), leaving node_modules external.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
            },
            output: { format: 'es', entryFileNames: '[name].js' },
          },
        },
      }
    : {
        root: path.join(root, 'client'),
        publicDir: false,
        plugins: [react()],
        logLevel: 'warn',
        build: {
          outDir: path.join(root, 'dist/client'),
          emptyOutDir: true,
          manifest: true,
          target: 'es2022',
          rollupOptions: { input: path.join(root, 'client/entry-client.tsx') },
        },
      },
);
