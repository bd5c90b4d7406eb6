// A project's tokens on its settings page, for its administrators: rotated without downtime
// (make a new token, put it in CI, revoke the old one). The secret of a new token is shown
// once; the list shows each live token by its first characters, with its creation and last
// use. Anyone else reads that only administrators manage tokens.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type NewProjectToken, type ProjectToken } from "../api";
import { SecretOnce } from "../components/secret-once";
import { relativeTime } from "../format";
import { useAction } from "../hooks/use-action";

export function ProjectTokensSection({ account, project }: { account: string; project: string }) {
  const [tokens, setTokens] = useState<ProjectToken[] | null>(null);
  const [created, setCreated] = useState<NewProjectToken | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [forbidden, setForbidden] = useState(false);
  const { error, setError, run: act } = useAction(() => load());

  const load = () =>
    api.projectTokens(account, project).then(setTokens, (e) => {
      if (e instanceof ApiError && (e.status === 403 || e.status === 401)) setForbidden(true);
      else setError((e as Error).message);
    });
  useEffect(() => {
    load();
  }, [account, project]);


  return (
    <section aria-label="Project tokens">
      <h2 class="section-title">Project tokens</h2>
      {forbidden ? (
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
                      {confirming === token.id ? (
                        <>
                          <button type="button" class="button button-small button-reject"
                            onClick={() => act(async () => {
                              await api.revokeProjectToken(account, project, token.id);
                              setConfirming(null);
                              if (created?.id === token.id) setCreated(null);
                            })}>
                            Revoke {token.prefix}…
                          </button>
                          <button type="button" class="link-button small" onClick={() => setConfirming(null)}>Cancel</button>
                        </>
                      ) : (
                        <button type="button" class="link-button small" aria-label={`Revoke ${token.prefix}`}
                          onClick={() => setConfirming(token.id)}>
                          Revoke
                        </button>
                      )}
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
