/** The whole page: header, the page chosen by path, footer. Rendered on the server and hydrated. */
import { Footer } from './components/Footer.tsx';
import { Header } from './components/Header.tsx';
import type { PageProps } from './page-props.ts';
import { pageFor } from './routes.ts';

export function App(props: PageProps) {
  const Page = pageFor(props.path).component;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <Header path={props.path} businessName={props.business.name} />
      <main id="main" tabIndex={-1}>
        <Page {...props} />
      </main>
      <Footer business={props.business} path={props.path} />
    </>
  );
}
