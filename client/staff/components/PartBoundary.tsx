/**
 * Around the dashboard's parts that load their code when first opened: when that code cannot be
 * fetched (the van's signal dropped, or a new version was deployed and the old file is gone), the
 * part says so and offers a reload, and the rest of the dashboard stays as it was. Without it an
 * error there unmounted the whole page. Opening another part (`part` changes) clears the notice;
 * the part that failed fails again until the page is reloaded (React keeps a lazy part's failure).
 */
import { Component, type ReactNode } from 'react';

interface Props {
  /** Which part is shown: a change clears the failure. */
  part: string;
  children: ReactNode;
}

export class PartBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.part !== this.props.part) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      // As the views show a list that could not be loaded (BookingsView): the message, then the way out.
      <div className="card empty" role="alert" ref={(notice) => notice?.scrollIntoView({ block: 'nearest' })}>
        <p>This part of the dashboard could not be loaded. Check the connection, then reload the page.</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
