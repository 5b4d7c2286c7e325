/**
 * The payment methods in the footer as icons, as the original showed them. The drawings are SVG
 * data URIs in Footer.css (as inline SVG elements they cost every page 0.36 KB of JavaScript);
 * each icon is an image named for screen readers, with the name as its tooltip.
 */
const METHODS: readonly [name: string, icon: string][] = [
  ['Visa', 'visa'],
  ['Mastercard', 'mastercard'],
  ['EFTPOS', 'eftpos'],
  ['Bank transfer', 'bank'],
  ['Cash', 'cash'],
];

export function PaymentMethods() {
  return (
    <ul className="payments" aria-label="Payment methods we accept">
      {METHODS.map(([name, icon]) => (
        <li key={name}>
          <span className={`payment-icon payment-${icon}`} role="img" aria-label={name} title={name} />
        </li>
      ))}
    </ul>
  );
}
