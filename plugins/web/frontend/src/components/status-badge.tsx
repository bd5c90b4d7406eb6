// Build and diff states as small coloured labels.
const labels: Record<string, string> = {
  pending: "Pending",
  progress: "In progress",
  expired: "Expired",
  error: "Error",
  aborted: "Aborted",
  "no-changes": "No changes",
  "changes-detected": "Changes detected",
  accepted: "Approved",
  rejected: "Changes requested",
  changed: "Changed",
  added: "Added",
  removed: "Removed",
  unchanged: "Unchanged",
  failure: "Failure",
  retryFailure: "Retry failure",
  ignored: "Ignored",
};

export function statusLabel(status: string) {
  return labels[status] ?? status;
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span class={`badge badge-${status}`} title={statusLabel(status)}>
      {statusLabel(status)}
    </span>
  );
}
