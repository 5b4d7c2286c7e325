/**
 * The whole page: header, the page chosen by path, footer and contact widget; rendered on the
 * server and hydrated. Staff pages have a frame of their own (issue 21, drawn by the page):
 * no marketing header, footer or chat buttons.
 */
import { useEffect, type ComponentType } from 'react';
import { ContactWidget } from './components/ContactWidget.tsx';
import { Footer } from './components/Footer.tsx';
import { Header } from './components/Header.tsx';
import { showFlash } from './lib/toast.ts';
import { isStaffPath, type PageProps } from './page-props.ts';
import type { ContactState } from './page-state.ts';

export interface AppProps extends PageProps<unknown> {
  Page: ComponentType<PageProps<never>>;
}

export function App({ Page, ...props }: AppProps) {
  const staff = isStaffPath(props.path);
  useEffect(() => {
    // Marks the page interactive (tests and monitoring wait for it), then shows any pending toast.
    document.documentElement.dataset.hydrated = 'true';
    showFlash();
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      {!staff && <Header path={props.path} businessName={props.business.name} />}
      <main id="main" tabIndex={-1}>
        <Page {...(props as PageProps<never>)} />
      </main>
      {!staff && (
        <>
          <Footer
            business={props.business}
            path={props.path}
            newsletterSent={props.path === '/contact' && (props.state as ContactState | null)?.newsletter === true}
          />
          <ContactWidget business={props.business} />
        </>
      )}
    </>
  );
}
