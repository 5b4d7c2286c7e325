/** What every page receives, on the server and again in the browser from the hydration data. */
import type { BusinessInfo } from '#domain/business.ts';

export interface PageProps<State = undefined> {
  /** The page's path, or NOT_FOUND_PATH for the 404 page. */
  path: string;
  business: BusinessInfo;
  /** Page-specific data the server decided (a form's values and errors, a preselected package). */
  state: State;
}

export const NOT_FOUND_PATH = '/404';

/** Staff pages: no customer-facing newsletter or contact widget over the work. */
export const isStaffPath = (path: string): boolean => path === '/dashboard' || path.startsWith('/dashboard/');
