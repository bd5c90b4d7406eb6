// The settings page's applications: what the person signed in with `argos login` (the Argos
// CLI on a computer), with the permissions they approved and when it was last given a token;
// "Revoke" (after a confirmation) ends it and every token of it, as `argos logout` would.
import { useEffect, useState } from "preact/hooks";
import { api, type OAuthGrant } from "../api";
import { ConfirmButton } from "../components/confirm-button";
import { relativeTime } from "../format";

export function ApplicationsSection() {
  const [grants, setGrants] = useState<OAuthGrant[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = () => api.oauthGrants().then(setGrants, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, []);

  const revoke = async (grant: OAuthGrant) => {
    setError(null);
    try {
      await api.revokeOAuthGrant(grant.id);
      await load();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };

  return (
    <section aria-label="Applications">
      <h2 class="section-title">Applications</h2>
      <p class="muted small">What you signed in with <code>argos login</code>.</p>
      {grants && grants.length === 0 && <p class="muted">No application is signed in as you.</p>}
      {grants && grants.length > 0 && (
        <table class="builds-table tokens-table" aria-label="Your applications">
          <thead>
            <tr>
              <th>Application</th>
              <th>Permissions</th>
              <th>Approved</th>
              <th>Last active</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.id}>
                <td>{grant.client.name}</td>
                <td class="small">{grant.scopes.join(", ")}</td>
                <td>{relativeTime(grant.createdAt)}</td>
                <td>{relativeTime(grant.lastUsedAt)}</td>
                <td class="token-actions">
                  <ConfirmButton label="Revoke" ariaLabel={`Revoke ${grant.client.name} (${grant.id})`} confirmLabel={`Revoke ${grant.client.name}`}
                    onConfirm={() => revoke(grant)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
