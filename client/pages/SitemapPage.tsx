/** /sitemap: every public page in one list, grouped as the site is. */
import { PageHero } from '../components/PageHero.tsx';
import { PAGES, type PageDefinition } from '../routes.ts';
import './SitemapPage.css';

const GROUPS: { group: PageDefinition['group']; title: string }[] = [
  { group: 'main', title: 'Main pages' },
  { group: 'services', title: 'Service pages' },
  { group: 'legal', title: 'Policies and site information' },
];

export default function SitemapPage() {
  return (
    <>
      <PageHero title="Sitemap" />
      <section className="section">
        <div className="container sitemap">
          {GROUPS.map(({ group, title }) => (
            <nav key={group} aria-labelledby={`sitemap-${group}`}>
              <h2 id={`sitemap-${group}`}>{title}</h2>
              <ul className="footer-links">
                {PAGES.filter((page) => page.group === group).map((page) => (
                  <li key={page.path}>
                    <a href={page.path}>{page.label}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
      </section>
    </>
  );
}
