/**
 * The owner's panels, one part for the dashboard to name and load, so that another owner's tab
 * costs its first load nothing more (the dashboard's initial JavaScript is at its 85 KB budget):
 * Backups (issue 42) and Webhooks (issue 44) travel in this chunk, the Insights (issue 44), larger,
 * in a chunk of their own loaded from here when first opened.
 */
import { lazyPart } from '../lib/lazy-part.ts';
import BackupsPanel from './BackupsPanel.tsx';
import WebhooksPanel from './WebhooksPanel.tsx';

const InsightsView = lazyPart('staff/components/InsightsView.tsx', () => import('./InsightsView.tsx'));

export default function OwnerPanel({ panel, onSignedOut }: { panel: 'backups' | 'webhooks' | 'insights'; onSignedOut(): void }) {
  if (panel === 'insights') return <InsightsView onSignedOut={onSignedOut} />;
  return panel === 'backups' ? <BackupsPanel onSignedOut={onSignedOut} /> : <WebhooksPanel onSignedOut={onSignedOut} />;
}
