/**
 * Addresses of pages that rules, e-mails and the page table all name. Apart from the rules
 * themselves, so that a page linking to one (the sitemap, say) does not load those rules too.
 */

/** "Find my booking" (issue 22): linked from the footer, the manage page and the confirmation e-mail. */
export const FIND_BOOKING_PATH = '/booking/find';

/** The owner's Insights (issue 44): linked from the dashboard's tabs; its charts' CSVs are under it. */
export const INSIGHTS_PAGE_PATH = '/dashboard/insights';
