import type { Session } from "../api";
import { WaitingReviews } from "../components/waiting-reviews";
import { AccountProjects } from "./account-page";

/** The builds waiting for the signed-in user's review, then every account with its projects. */
export function HomePage({ session }: { session: Session }) {
  const accounts = session.accounts ?? [];
  return (
    <div class="page page-narrow">
      {session.plugins.includes("reviews") && <WaitingReviews />}
      <h1 class="page-title">Projects</h1>
      {accounts.length === 0 && <p class="muted">You belong to no account yet.</p>}
      {accounts.map((account) => (
        <AccountProjects key={account} account={account} heading />
      ))}
    </div>
  );
}
