// The chat services a team's automation rules post to, on its settings page (administrators):
// a Slack bot token, Teams and Discord webhooks by name (the `webhookId` rules give). Secrets
// are sent once and sealed on the server: the page shows only their last characters. The
// operator's services are listed by name, for reference.
import { useEffect, useState } from "preact/hooks";
import { api, type ChatTargets } from "../api";
import { useAction } from "../hooks/use-action";
import { relativeTime } from "../format";

const kindLabels: Record<string, string> = { slack: "Slack bot token", teams: "Microsoft Teams webhook", discord: "Discord webhook" };

export function TeamChatSection({ account }: { account: string }) {
  const [targets, setTargets] = useState<ChatTargets | null>(null);
  const [kind, setKind] = useState("discord");
  const [name, setName] = useState("");
  const [secret, setSecret] = useState("");
  const { error, setError, run } = useAction(() => load());

  const load = () => api.chatTargets(account).then(setTargets, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [account]);

  const slack = kind === "slack";
  const server = targets?.server;
  const serverNames = server
    ? [...(server.slack ? ["Slack"] : []), ...server.teams.map((n) => `Teams ${n}`), ...server.discord.map((n) => `Discord ${n}`)]
    : [];
  return (
    <section aria-label="Chat services">
      <h2 class="section-title">Chat services</h2>
      <p class="muted small">
        Where the team's automation rules post. A rule names a webhook by its name (<span class="mono">webhookId</span>); the secret is
        stored encrypted and never shown again.
      </p>
      {targets && targets.targets.length === 0 && <p class="muted">The team has registered no chat service.</p>}
      {targets && targets.targets.length > 0 && (
        <ul class="plain-list" aria-label="Registered chat services">
          {targets.targets.map((target) => (
            <li key={`${target.kind}/${target.name}`}>
              <span>{kindLabels[target.kind]}</span> <span class="mono">{target.name}</span>
              <span class="muted small"> {target.hint} · {relativeTime(target.updatedAt)}</span>
              <button type="button" class="link-button small" aria-label={`Remove ${target.kind} ${target.name}`}
                onClick={() => run(() => api.deleteChatTarget(account, target.kind, target.name))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {serverNames.length > 0 && <p class="muted small">Also configured on the server: {serverNames.join(", ")}.</p>}
      <form class="token-form" onSubmit={(event) => {
        event.preventDefault();
        run(async () => {
          await api.saveChatTarget(account, kind, slack ? "bot" : name.trim(), secret.trim());
          setName("");
          setSecret("");
        });
      }}>
        <label class="field">
          <span>Service</span>
          <select value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value)}>
            <option value="discord">Discord webhook</option>
            <option value="teams">Microsoft Teams webhook</option>
            <option value="slack">Slack bot token</option>
          </select>
        </label>
        {!slack && (
          <label class="field">
            <span>Name</span>
            <input type="text" value={name} required pattern="[A-Za-z0-9_\\-]{1,64}" placeholder="ops" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
        )}
        <label class="field">
          <span>{slack ? "Bot token" : "Webhook URL"}</span>
          <input type="password" autocomplete="off" value={secret} required placeholder={slack ? "xoxb-…" : "https://…"} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="button" disabled={!secret.trim() || (!slack && !name.trim())}>Save</button>
      </form>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
