/** Site header: logo, the main links, the highlighted Book Now, and the small-screen menu toggle. */
import { useState } from 'react';
import { Icon } from './Icon.tsx';
import './Header.css';

export const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/services', label: 'Services' },
  { href: '/about', label: 'About Us' },
  { href: '/contact', label: 'Contact' },
] as const;

export function Header({ path, businessName }: { path: string; businessName: string }) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="site-header">
      <div className="container header-bar">
        <a className="logo" href="/" aria-label={`${businessName} home`}>
          <span className="logo-mark">
            <Icon name="car" size={22} />
          </span>
          <span className="logo-text">{businessName}</span>
        </a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
        </button>
        <nav id="site-nav" className={menuOpen ? 'site-nav open' : 'site-nav'} aria-label="Main">
          <ul className="nav-links">
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={link.href === path ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <a className="button button-accent" href="/booking">
                Book Now
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
