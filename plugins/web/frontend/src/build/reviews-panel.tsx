import type { Review } from "../api";
import { relativeTime } from "../format";

const stateText: Record<string, string> = {
  approved: "approved",
  rejected: "requested changes",
  commented: "commented",
  pending: "has a draft review",
};

/** Who reviewed the build, newest last; a review can be dismissed. */
export function ReviewsPanel({ reviews, onDismiss }: { reviews: Review[]; onDismiss: (review: Review) => void }) {
  if (reviews.length === 0) return <p class="muted small hint">No review yet.</p>;
  return (
    <ul class="reviews" aria-label="Reviews">
      {reviews.map((review) => (
        <li key={review.id} class={review.dismissedAt ? "review-dismissed" : ""}>
          <span class={`review-dot review-${review.state}`} aria-hidden="true" />
          <span>
            <strong>{review.user?.name ?? review.user?.slug ?? "someone"}</strong> {stateText[review.state] ?? review.state}
            <span class="muted small"> {relativeTime(review.date)}</span>
            {review.dismissedAt && <span class="muted small"> · dismissed</span>}
          </span>
          {!review.dismissedAt && review.state !== "pending" && (
            <button type="button" class="link-button small" onClick={() => onDismiss(review)}>Dismiss</button>
          )}
        </li>
      ))}
    </ul>
  );
}
