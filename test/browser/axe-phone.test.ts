/** Axe on every page on a phone (390 px wide). */
import { axeSweep } from '../support/axe-sweep.ts';

axeSweep(390);
