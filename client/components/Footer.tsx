/** Site footer with every element of spec section 2: newsletter, about, links, contact, hours, payments, legal. */
import { useState, type FormEvent } from 'react';
import { ABOUT_SNIPPET, HOURS, telHref, type BusinessInfo } from '#domain/business.ts';
import { PACKAGES } from '#domain/catalogue.ts';
import { isStaffPath } from '../page-props.ts';
import { SocialLinks } from './SocialLinks.tsx';
import { Icon } from './Icon.tsx';
import { PaymentMethods } from './PaymentMethods.tsx';
import './Footer.css';

const QUICK_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/services', label: 'Services' },
  { href: '/about', label: 'About Us' },
  { href: '/contact', label: 'Contact' },
  { href: '/booking', label: 'Booking' },
  { href: '/booking/find', label: 'Find my booking' },
];

const LEGAL_LINKS = [
  { href: '/privacy-policy', label: 'Privacy Policy' },
  { href: '/terms', label: 'Terms of Service' },
  { href: '/sitemap', label: 'Sitemap' },
];

/** A list's items: one link each. */
const linkItems = (links: readonly { href: string; label: string }[]) =>
  links.map((link) => (
    <li key={link.href}>
      <a href={link.href}>{link.label}</a>
    </li>
  ));

/** The original's later pages (booking and legal) carried a different hours statement (spec section 9). */
const LATER_PAGES = ['/booking', '/privacy-policy', '/terms'];

const NEWSLETTER_NOT_OPEN = 'Our newsletter is not open yet. Follow us on Facebook or Instagram for offers.';

/**
 * The original had a newsletter box with no sign-up behind it. It is kept (hidden on the home
 * page, as there), but it says plainly that sign-up is not open rather than pretending to
 * subscribe: at once with JavaScript, and without it on the contact page the form goes to
 * (/contact?email=…, `sent`), rendered by the server.
 */
function Newsletter({ hidden, sent }: { hidden: boolean; sent: boolean }) {
  const [note, setNote] = useState(sent ? NEWSLETTER_NOT_OPEN : '');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setNote(NEWSLETTER_NOT_OPEN);
  };
  return (
    <section className={hidden ? 'newsletter hidden' : 'newsletter'} aria-labelledby="newsletter-title">
      <div className="container newsletter-inner">
        <div>
          <h2 id="newsletter-title">Stay in the loop</h2>
          <p>Seasonal offers and car-care tips.</p>
        </div>
        <form className="newsletter-form" onSubmit={onSubmit} action="/contact#newsletter-title" method="get">
          <label htmlFor="newsletter-email" className="visually-hidden">
            Email address
          </label>
          <input id="newsletter-email" type="email" name="email" placeholder="Your email address" autoComplete="email" />
          <button type="submit" className="button button-accent">
            Subscribe
          </button>
          <p className="form-note" role="status">
            {note}
          </p>
        </form>
      </div>
    </section>
  );
}

export function Footer({ business, path, newsletterSent = false }: { business: BusinessInfo; path: string; newsletterSent?: boolean }) {
  return (
    <footer className="site-footer">
      {!isStaffPath(path) && <Newsletter hidden={path === '/'} sent={newsletterSent} />}
      <div className="container footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-title">
            {business.name}
          </h2>
          <p>{ABOUT_SNIPPET}</p>
          <SocialLinks business={business} />
        </section>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="footer-title">
            Quick Links
          </h2>
          <ul className="footer-links">
            {linkItems(QUICK_LINKS)}
          </ul>
        </nav>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services" className="footer-title">
            Services
          </h2>
          <ul className="footer-links">
            {linkItems(PACKAGES.map((pkg) => ({ href: `/services/${pkg.id}`, label: pkg.name })))}
          </ul>
        </nav>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-title">
            Contact
          </h2>
          <address className="footer-contact">
            <span>
              <Icon name="pin" size={18} /> {business.streetAddress}, {business.suburb}, {business.city} {business.postcode}
            </span>
            <a href={`mailto:${business.email}`}>
              <Icon name="mail" size={18} /> {business.email}
            </a>
            <a href={telHref(business.phone)}>
              <Icon name="phone" size={18} /> {business.phone}
            </a>
          </address>
          <h3 className="footer-subtitle">Business Hours</h3>
          <ul className="hours">
            {(LATER_PAGES.includes(path) ? HOURS.laterFooter : HOURS.marketingFooter).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      </div>
      <div className="container footer-bottom">
        <PaymentMethods />
        <ul className="legal-links">{linkItems(LEGAL_LINKS)}</ul>
        <p className="copyright">
          © 2024 {business.name.replace(/\.$/, '')}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
