/** Axe on every page on a desktop (1280 px wide). */
import { axeSweep } from '../support/axe-sweep.ts';

axeSweep(1280);
