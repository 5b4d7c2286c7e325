/**
 * The honeypot field of a form (src/domain/forms.ts): clipped out of sight rather than
 * display:none (which simple bots recognise), out of the tab order, unread by screen readers.
 */
import { HONEYPOT_FIELD } from '#domain/forms.ts';

export function Honeypot() {
  return (
    <div className="visually-hidden" aria-hidden="true">
      <label>
        Leave this empty <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
