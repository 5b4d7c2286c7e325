/** The business's social links (the original's placeholder third link is left out). */
import type { BusinessInfo } from '#domain/business.ts';
import { Icon } from './Icon.tsx';
import './SocialLinks.css';

export function SocialLinks({ business }: { business: BusinessInfo }) {
  return (
    <ul className="social-links">
      <li>
        <a href={business.facebookUrl} rel="noopener" aria-label="Facebook">
          <Icon name="facebook" size={20} />
        </a>
      </li>
      <li>
        <a href={business.instagramUrl} rel="noopener" aria-label="Instagram">
          <Icon name="instagram" size={20} />
        </a>
      </li>
    </ul>
  );
}
