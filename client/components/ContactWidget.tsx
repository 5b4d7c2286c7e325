/**
 * The floating contact widget (spec sections 1 and 4): a call button and a chat button whose popup
 * holds the chat link with its prefilled message. The popup is a <details>, so it opens and closes
 * without JavaScript too; Escape closes it once hydrated. The tooltip shows on hover and on
 * keyboard focus.
 */
import { useRef, type KeyboardEvent } from 'react';
import { telHref, type BusinessInfo } from '#domain/business.ts';
import { Icon } from './Icon.tsx';
import './ContactWidget.css';

export function ContactWidget({ business }: { business: BusinessInfo }) {
  const details = useRef<HTMLDetailsElement>(null);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && details.current?.open) {
      details.current.open = false;
      details.current.querySelector('summary')?.focus();
    }
  };
  return (
    <aside className="contact-widget" aria-label="Quick contact">
      <a className="widget-button widget-call" href={telHref(business.phone)}>
        <Icon name="phone" />
        <span className="widget-tooltip">Call {business.phone}</span>
      </a>
      <details className="widget-chat" ref={details} onKeyDown={closeOnEscape}>
        <summary className="widget-button">
          <Icon name="chat" />
          <span className="widget-tooltip">Chat with us</span>
        </summary>
        <div className="widget-popup">
          <p className="widget-popup-title">Chat with us</p>
          <p>Hi there! Questions about a booking or a quote? Message us and we will reply quickly.</p>
          <a className="button button-accent" href={business.chatUrl} target="_blank" rel="noopener noreferrer">
            Start chat<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </div>
      </details>
    </aside>
  );
}
