/**
 * The staff frame (issue 21): a slim bar naming the business, instead of the marketing header, on
 * the dashboard and the owner's Insights page. Its rules are in DashboardPage.css, which both load.
 */
export function StaffBar({ businessName }: { businessName: string }) {
  return (
    <div className="staff-header">
      <a className="staff-brand" href="/dashboard">
        {businessName} <span>Staff</span>
      </a>
      <a className="staff-site-link" href="/">
        View the website
      </a>
    </div>
  );
}
