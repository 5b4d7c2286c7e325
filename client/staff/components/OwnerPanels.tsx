/**
 * The owner's panels that travel in one lazily loaded chunk: Backups (issue 42) and Webhooks
 * (issue 44). One part for the dashboard to name and load, so that a second owner's tab costs its
 * first load nothing more (the dashboard's initial JavaScript is at its 85 KB budget).
 */
import BackupsPanel from './BackupsPanel.tsx';
import WebhooksPanel from './WebhooksPanel.tsx';

export default function OwnerPanel({ panel, onSignedOut }: { panel: 'backups' | 'webhooks'; onSignedOut(): void }) {
  return panel === 'backups' ? <BackupsPanel onSignedOut={onSignedOut} /> : <WebhooksPanel onSignedOut={onSignedOut} />;
}
