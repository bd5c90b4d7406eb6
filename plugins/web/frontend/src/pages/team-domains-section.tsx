// The email domains a team is open to, on its settings page: anyone who signs in with a
// verified address on one joins at the default role. Owners add one (the server requires their
// own address on it and refuses public mail providers) or remove one.
import { useEffect, useState } from "preact/hooks";
import { api, type TeamDomain } from "../api";
import { useAction } from "../hooks/use-action";

export function TeamDomainsSection({ account, admin, onChange }: { account: string; admin: boolean; onChange: () => void }) {
  const [domains, setDomains] = useState<TeamDomain[] | null>(null);
  const [domain, setDomain] = useState("");
  const { error, setError, run } = useAction(() => load());

  const load = () => api.domains(account).then(setDomains, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [account]);

  const act = async (action: () => Promise<unknown>) => {
    if (await run(action)) onChange();
  };

  return (
    <section aria-label="Email domains">
      <h2 class="section-title">Email domains</h2>
      <p class="muted small">People who sign in with a verified address on these domains join the team at its default role.</p>
      {domains && domains.length === 0 && <p class="muted">The team is open to no domain.</p>}
      {domains && domains.length > 0 && (
        <ul class="plain-list" aria-label="Domains">
          {domains.map((item) => (
            <li key={item.domain}>
              <span class="mono">{item.domain}</span>
              {admin && (
                <button type="button" class="link-button small" aria-label={`Remove ${item.domain}`}
                  onClick={() => act(() => api.removeDomain(account, item.domain))}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {admin && (
        <form class="token-form" onSubmit={(event) => {
          event.preventDefault();
          act(async () => {
            await api.addDomain(account, domain.trim());
            setDomain("");
          });
        }}>
          <label class="field">
            <span>Domain</span>
            <input type="text" value={domain} required placeholder="example.com" onInput={(e) => setDomain((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" class="button" disabled={!domain.trim()}>Add domain</button>
        </form>
      )}
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
