// The settings page's personal access tokens: the person's live tokens (name, first
// characters, accounts, dates), a form that makes one (its secret is shown once, to copy), and
// revoking one after a confirmation. Tokens are for the Argos CLI and scripts; the server keeps
// only their hashes.
import { useEffect, useState } from "preact/hooks";
import { api, type NewPersonalToken, type PersonalToken, type Session } from "../api";
import { ConfirmButton } from "../components/confirm-button";
import { SecretOnce } from "../components/secret-once";
import { relativeTime } from "../format";

const expiryChoices: { label: string; days: number | null }[] = [
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "1 year", days: 365 },
  { label: "Never", days: null },
];

function dateText(iso: string | null, none: string) {
  return iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) : none;
}

export function PersonalTokensSection({ session }: { session: Session }) {
  const own = session.user!.slug;
  const accounts = session.accounts ?? [own];
  const [tokens, setTokens] = useState<PersonalToken[] | null>(null);
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState("90");
  const [chosen, setChosen] = useState<string[]>([own]);
  const [created, setCreated] = useState<NewPersonalToken | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () => api.personalTokens().then(setTokens, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, []);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const days = expiry === "never" ? null : Number(expiry);
      setCreated(await api.createPersonalToken({ name: name.trim(), accounts: chosen, expiresInDays: days }));
      setName("");
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (token: PersonalToken) => {
    setError(null);
    try {
      await api.revokePersonalToken(token.id);
      if (created?.id === token.id) setCreated(null);
      await load();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };

  const toggle = (slug: string, on: boolean) =>
    setChosen((current) => (on ? [...current.filter((s) => s !== slug), slug] : current.filter((s) => s !== slug)));

  return (
    <section aria-label="Personal access tokens">
      <h2 class="section-title">Personal access tokens</h2>
      <p class="muted small">
        For the Argos CLI and scripts (<code>ARGOS_TOKEN</code>): a token acts as you on the accounts you choose.
      </p>
      {created && (
        <SecretOnce label="New token" value={created.token}>
          <strong>{created.name}</strong> is ready.
        </SecretOnce>
      )}
      <form class="token-form" onSubmit={create}>
        <label class="field">
          <span>Name</span>
          <input type="text" value={name} maxLength={100} required placeholder="CI of the docs site"
            onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>Expires</span>
          <select value={expiry} onChange={(e) => setExpiry((e.target as HTMLSelectElement).value)}>
            {expiryChoices.map((choice) => (
              <option key={choice.label} value={choice.days === null ? "never" : String(choice.days)}>{choice.label}</option>
            ))}
          </select>
        </label>
        <fieldset class="field token-accounts">
          <legend>Accounts</legend>
          {accounts.map((slug) => (
            <label class="check" key={slug}>
              <input type="checkbox" checked={chosen.includes(slug)} onChange={(e) => toggle(slug, (e.target as HTMLInputElement).checked)} />
              {slug}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="button button-primary" disabled={busy || !name.trim() || chosen.length === 0}>
          Create token
        </button>
      </form>
      {error && <p class="form-error" role="alert">{error}</p>}
      {tokens && tokens.length === 0 && <p class="muted">You have no personal access token.</p>}
      {tokens && tokens.length > 0 && (
        <table class="builds-table tokens-table" aria-label="Your tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Token</th>
              <th>Accounts</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name || <span class="muted">(no name)</span>}</td>
                <td class="mono">{token.prefix}…</td>
                <td>{token.accounts.join(", ")}</td>
                <td>{relativeTime(token.createdAt)}</td>
                <td>{dateText(token.expiresAt, "never")}</td>
                <td>{token.lastUsedAt ? relativeTime(token.lastUsedAt) : <span class="muted">never</span>}</td>
                <td class="token-actions">
                  <ConfirmButton label="Revoke" ariaLabel={`Revoke ${token.name}`} confirmLabel={`Revoke ${token.name}`} onConfirm={() => revoke(token)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
