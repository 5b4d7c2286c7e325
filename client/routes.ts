/** The page table: adding a page is one entry here (and its route on the server). */
import type { ComponentType } from 'react';
import type { BusinessInfo } from '../src/domain/business.ts';
import { HomePage } from './pages/HomePage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { NOT_FOUND_PATH, type PageProps } from './page-props.ts';

export interface PageDefinition {
  path: string;
  title(business: BusinessInfo): string;
  description: string;
  component: ComponentType<PageProps>;
  /** Whether search engines should index the page. */
  index: boolean;
}

export const PAGES: readonly PageDefinition[] = [
  {
    path: '/',
    title: (b) => `${b.name} | Mobile Car Valeting & Detailing in Auckland`,
    description:
      'Mobile and drop-off car valeting and detailing in Auckland. Same-day service, eco-friendly products, prices from $69. Book online 24/7.',
    component: HomePage,
    index: true,
  },
];

export const NOT_FOUND_PAGE: PageDefinition = {
  path: NOT_FOUND_PATH,
  title: (b) => `Page not found | ${b.name}`,
  description: 'The page you were looking for does not exist.',
  component: NotFoundPage,
  index: false,
};

export function findPage(path: string): PageDefinition | undefined {
  return PAGES.find((page) => page.path === path);
}

export function pageFor(path: string): PageDefinition {
  return findPage(path) ?? NOT_FOUND_PAGE;
}
