import './NotFoundPage.css';
/** The 404 page: says what happened and offers the ways on. */
export default function NotFoundPage() {
  return (
    <section className="section not-found" aria-labelledby="not-found-title">
      <div className="container narrow">
        <p className="eyebrow">Error 404</p>
        <h1 id="not-found-title">We couldn't find that page</h1>
        <p className="lead">The link may be old or mistyped. These will get you back on the road:</p>
        <ul className="actions">
          <li>
            <a className="button button-primary" href="/">
              Home
            </a>
          </li>
          <li>
            <a className="button button-ghost" href="/services">
              Our Services
            </a>
          </li>
          <li>
            <a className="button button-accent" href="/booking">
              Book Now
            </a>
          </li>
        </ul>
      </div>
    </section>
  );
}
