/**
 * The payment methods in the footer as icons, as the original showed them: inline SVG, each an
 * image named for screen readers (aria-label) with the name as its tooltip (<title>). The
 * drawings are kept to a few shapes, and what they share (font, centring, size) is in
 * Footer.css, since every page's JavaScript carries them.
 */
import type { ReactNode } from 'react';

const METHODS: readonly [name: string, drawing: ReactNode][] = [
  [
    'Visa',
    <text x="24" y="21" fontSize="14" fontStyle="italic" fill="#1a1f71">
      VISA
    </text>,
  ],
  [
    'Mastercard',
    <>
      <circle cx="19" cy="16" r="9" fill="#eb001b" />
      <circle cx="29" cy="16" r="9" fill="#f79e1b" fillOpacity=".9" />
    </>,
  ],
  [
    'EFTPOS',
    <text x="24" y="20" fontSize="11" fill="#10223b">
      eftpos
    </text>,
  ],
  ['Bank transfer', <path d="M24 6l12 6H12zM14 14h3v8h-3zm8.5 0h3v8h-3zM31 14h3v8h-3zM12 24h24v3H12z" fill="#0b5fad" />],
  [
    'Cash',
    <>
      <rect x="9" y="9" width="30" height="15" rx="2" fill="none" stroke="#1c7c3c" strokeWidth="2" />
      <circle cx="24" cy="16.5" r="4" fill="#1c7c3c" />
    </>,
  ],
];

export function PaymentMethods() {
  return (
    <ul className="payments" aria-label="Payment methods we accept">
      {METHODS.map(([name, drawing]) => (
        <li key={name}>
          <svg className="payment-icon" viewBox="0 0 48 32" role="img" aria-label={name}>
            <title>{name}</title>
            {drawing}
          </svg>
        </li>
      ))}
    </ul>
  );
}
