/**
 * The owner's panels, one part for the dashboard to name and load, so that another owner's tab
 * costs its first load nothing more (the dashboard's initial JavaScript is at its 85 KB budget):
 * Staff accounts (issue 22), Backups (issue 42) and Webhooks (issue 44). The Insights (issue 44)
 * are a page of their own, /dashboard/insights, linked from the tabs.
 */
import BackupsPanel from './BackupsPanel.tsx';
import StaffMembersView from './StaffMembersView.tsx';
import WebhooksPanel from './WebhooksPanel.tsx';

export default function OwnerPanel({ panel, onSignedOut }: { panel: 'staff' | 'backups' | 'webhooks'; onSignedOut(): void }) {
  if (panel === 'staff') return <StaffMembersView onSignedOut={onSignedOut} />;
  return panel === 'backups' ? <BackupsPanel onSignedOut={onSignedOut} /> : <WebhooksPanel onSignedOut={onSignedOut} />;
}
