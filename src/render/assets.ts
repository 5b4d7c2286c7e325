/** The hashed files of the browser bundle, read once from the Vite manifest. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ClientAssets {
  script: string;
  styles: string[];
}

const ENTRY = 'entry-client.tsx';

export function loadClientAssets(clientDir: string): ClientAssets {
  const manifestPath = path.join(clientDir, '.vite', 'manifest.json');
  let manifest: Record<string, { file: string; css?: string[] }>;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    throw new Error(`The browser bundle is missing (${manifestPath}); run npm run build`);
  }
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`${manifestPath} has no ${ENTRY} entry; run npm run build`);
  return { script: `/${entry.file}`, styles: (entry.css ?? []).map((file) => `/${file}`) };
}
