/** Builds the production bundle if it is missing or stale (run before the tests). */
import { ensureBuild } from './build-state.ts';

ensureBuild();
