import type { Session } from "../api";
import { AccountProjects } from "./account-page";

/** Every account of the signed-in user with its projects. */
export function HomePage({ session }: { session: Session }) {
  const accounts = session.accounts ?? [];
  return (
    <div class="page page-narrow">
      <h1 class="page-title">Projects</h1>
      {accounts.length === 0 && <p class="muted">You belong to no account yet.</p>}
      {accounts.map((account) => (
        <AccountProjects key={account} account={account} heading />
      ))}
    </div>
  );
}
