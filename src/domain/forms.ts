/**
 * The honeypot of the no-JavaScript forms: a field people never see (it is off-screen and
 * hidden from assistive technology) that bots filling in every field do fill in.
 */
export const HONEYPOT_FIELD = 'website';
