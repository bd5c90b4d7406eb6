import type { Review, UserRef } from "../api";
import { relativeTime } from "../format";

const stateText: Record<string, string> = {
  approved: "approved",
  rejected: "requested changes",
  commented: "commented",
  pending: "has a draft review",
};

const nameOf = (user: UserRef | null) => user?.name ?? user?.slug ?? "someone";

/**
 * Who reviewed the build, newest last (a review can be dismissed), then who was asked to review
 * it and has not yet approved or requested changes.
 */
export function ReviewsPanel({ reviews, reviewers, onDismiss }: {
  reviews: Review[];
  reviewers: UserRef[];
  onDismiss: (review: Review) => void;
}) {
  const decided = new Set(
    reviews
      .filter((review) => !review.dismissedAt && (review.state === "approved" || review.state === "rejected"))
      .map((review) => review.user?.id),
  );
  const awaited = reviewers.filter((reviewer) => !decided.has(reviewer.id));
  if (reviews.length === 0 && awaited.length === 0) return <p class="muted small hint">No review yet.</p>;
  return (
    <>
      {reviews.length > 0 && (
        <ul class="reviews" aria-label="Reviews">
          {reviews.map((review) => (
            <li key={review.id} class={review.dismissedAt ? "review-dismissed" : ""}>
              <span class={`review-dot review-${review.state}`} aria-hidden="true" />
              <span>
                <strong>{nameOf(review.user)}</strong> {stateText[review.state] ?? review.state}
                <span class="muted small"> {relativeTime(review.date)}</span>
                {review.dismissedAt && <span class="muted small"> · dismissed</span>}
              </span>
              {!review.dismissedAt && review.state !== "pending" && (
                <button type="button" class="link-button small" onClick={() => onDismiss(review)}>Dismiss</button>
              )}
            </li>
          ))}
        </ul>
      )}
      {awaited.length > 0 && (
        <>
          <h3 class="panel-subtitle">Review requested</h3>
          <ul class="reviews" aria-label="Requested reviewers">
            {awaited.map((reviewer) => (
              <li key={reviewer.id}>
                <span class="review-dot review-awaited" aria-hidden="true" />
                <span>
                  <strong>{nameOf(reviewer)}</strong> <span class="muted small">@{reviewer.slug} · awaiting review</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
