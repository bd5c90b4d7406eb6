// A team's invites on its settings page, for its owners: invite people by email with a role
// (the server mails each invite when mail is configured; the answer's link is shown once, to
// pass on when it is not), cancel a pending invite, and reset the team's shared invite link
// (the old link stops working; the new one is shown once, since the server keeps its hash).
import { useEffect, useState } from "preact/hooks";
import { api, type TeamInvite, type TeamRole } from "../api";
import { SecretOnce } from "../components/secret-once";
import { relativeTime } from "../format";
import { useAction } from "../hooks/use-action";

export function TeamInvitesSection({ account, mailed, onChange }: { account: string; mailed: boolean; onChange: () => void }) {
  const [invites, setInvites] = useState<TeamInvite[] | null>(null);
  const [emails, setEmails] = useState("");
  const [level, setLevel] = useState<TeamRole>("member");
  const [made, setMade] = useState<TeamInvite[]>([]);
  const [teamLink, setTeamLink] = useState<string | null>(null);
  const { error, setError, busy, run } = useAction(() => load());

  const load = () => api.invites(account).then((page) => setInvites(page.results), (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [account]);

  const act = async (action: () => Promise<void>) => {
    if (await run(action)) onChange();
  };

  const invite = (event: Event) => {
    event.preventDefault();
    const list = emails.split(/[\s,;]+/).filter(Boolean);
    act(async () => {
      setMade(await api.invitePeople(account, list.map((email) => ({ email, level }))));
      setEmails("");
    });
  };

  return (
    <section aria-label="Invites">
      <h2 class="section-title">Invites</h2>
      <form class="token-form" onSubmit={invite}>
        <label class="field field-wide">
          <span>Email addresses</span>
          <input type="text" value={emails} required placeholder="ada@example.com, grace@example.com"
            onInput={(e) => setEmails((e.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          <span>Role</span>
          <select value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value as TeamRole)}>
            <option value="member">Member</option>
            <option value="contributor">Contributor</option>
            <option value="owner">Owner</option>
          </select>
        </label>
        <button type="submit" class="button button-primary" disabled={busy || !emails.trim()}>Invite</button>
      </form>
      {made.map((invite) => (
        <SecretOnce key={invite.id} label={`Invite link for ${invite.email}`} value={invite.inviteLink ?? ""}>
          <strong>{invite.email}</strong> is invited as {invite.level}.{" "}
          {mailed ? "A mail with a link of its own is on its way; this link works as well" : "This server sends no mail: pass this link on"}{" "}
          (once, until {new Date(invite.expiresAt).toLocaleDateString()}).
        </SecretOnce>
      ))}
      {error && <p class="form-error" role="alert">{error}</p>}
      {invites && invites.length === 0 && <p class="muted">No pending invite.</p>}
      {invites && invites.length > 0 && (
        <table class="builds-table" aria-label="Pending invites">
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Sent</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id}>
                <td>{invite.email}</td>
                <td>{invite.level}</td>
                <td>{invite.expired ? <span class="muted">expired</span> : relativeTime(invite.createdAt)}</td>
                <td class="token-actions">
                  <button type="button" class="link-button small" aria-label={`Cancel the invite of ${invite.email}`}
                    onClick={() => act(() => api.cancelInvite(account, invite.id))}>
                    Cancel invite
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 class="panel-subtitle">Invite link</h3>
      <p class="muted small">
        Anyone with the team's link joins at the default role. Resetting it makes a new link; the old one stops working.
      </p>
      {teamLink && (
        <SecretOnce label="Team invite link" value={teamLink}>
          The team's new invite link is ready.
        </SecretOnce>
      )}
      <button type="button" class="button" disabled={busy} onClick={() => act(async () => setTeamLink(await api.resetInviteLink(account)))}>
        Reset the invite link
      </button>
    </section>
  );
}
