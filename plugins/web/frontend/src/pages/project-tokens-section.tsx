// A project's tokens on its settings page, for its administrators: rotated without downtime
// (make a new token, put it in CI, revoke the old one). The secret of a new token is shown
// once; the list shows each live token by its first characters, with its creation and last
// use. Anyone else reads that only administrators manage tokens (the page says who is one).
import { useEffect, useState } from "preact/hooks";
import { api, type NewProjectToken, type ProjectToken } from "../api";
import { ConfirmButton } from "../components/confirm-button";
import { SecretOnce } from "../components/secret-once";
import { relativeTime } from "../format";
import { useAction } from "../hooks/use-action";

export function ProjectTokensSection({ account, project, admin }: { account: string; project: string; admin: boolean }) {
  const [tokens, setTokens] = useState<ProjectToken[] | null>(null);
  const [created, setCreated] = useState<NewProjectToken | null>(null);
  const { error, setError, run: act } = useAction(() => load());

  const load = () => (admin ? api.projectTokens(account, project).then(setTokens, (e) => setError((e as Error).message)) : undefined);
  useEffect(() => {
    load();
  }, [account, project, admin]);

  return (
    <section aria-label="Project tokens">
      <h2 class="section-title">Project tokens</h2>
      {!admin ? (
        <p class="muted">Only the project's administrators see and manage its tokens.</p>
      ) : (
        <>
          <p class="muted small">
            CI uploads builds with a project token (<code>ARGOS_TOKEN</code>). To rotate one without downtime, make a new token,
            put it in CI, then revoke the old one.
          </p>
          {created && (
            <SecretOnce label="New project token" value={created.token}>
              The new token is ready.
            </SecretOnce>
          )}
          <p>
            <button type="button" class="button button-primary"
              onClick={() => act(async () => setCreated(await api.createProjectToken(account, project)))}>
              New project token
            </button>
          </p>
          {tokens && (
            <table class="builds-table tokens-table" aria-label="Project tokens">
              <thead>
                <tr>
                  <th>Token</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <td class="mono">{token.prefix}…</td>
                    <td>{relativeTime(token.createdAt)}</td>
                    <td>{token.lastUsedAt ? relativeTime(token.lastUsedAt) : <span class="muted">never</span>}</td>
                    <td class="token-actions">
                      <ConfirmButton label="Revoke" ariaLabel={`Revoke ${token.prefix}`} confirmLabel={`Revoke ${token.prefix}…`}
                        onConfirm={() => act(async () => {
                          await api.revokeProjectToken(account, project, token.id);
                          if (created?.id === token.id) setCreated(null);
                        })} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
