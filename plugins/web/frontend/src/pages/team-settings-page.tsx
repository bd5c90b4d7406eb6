// An account's settings (`/{account}/settings`). Everyone in the team reads its usage this
// period and its members; its owners also change the default role of people who join through
// the invite link or an email domain, change roles, remove members, invite people, reset the
// invite link, open the team to email domains, and read the administration trail. Every
// control calls the same API as the Argos CLI's `account` commands, and the server decides.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type AccountDetails, type AuditEntry, type Session } from "../api";
import { relativeTime } from "../format";
import { TeamChatSection } from "./team-chat-section";
import { TeamDomainsSection } from "./team-domains-section";
import { TeamInvitesSection } from "./team-invites-section";
import { TeamMembersSection } from "./team-members-section";

function Usage({ account }: { account: AccountDetails }) {
  const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: "short", day: "numeric" });
  return (
    <section aria-label="Usage">
      <h2 class="section-title">Usage</h2>
      <dl class="usage-figures">
        <div>
          <dt>Builds</dt>
          <dd>{account.currentPeriodBuilds.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Screenshots</dt>
          <dd>{account.currentPeriodScreenshots.toLocaleString()}</dd>
        </div>
      </dl>
      <p class="muted small">
        From {day(account.periodStartDate)} to {day(account.periodEndDate)}. Loupe has no plan and no limit beyond each project's quota.
      </p>
    </section>
  );
}

function DefaultRole({ account, onSaved }: { account: AccountDetails; onSaved: (next: AccountDetails) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const change = async (level: "member" | "contributor") => {
    setError(null);
    setSaved(null);
    try {
      onSaved(await api.updateAccount(account.slug, { defaultUserLevel: level }));
      setSaved("Saved");
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-label="Joining">
      <h2 class="section-title">Joining</h2>
      <label class="field">
        <span>Role of people who join through the invite link or an email domain</span>
        <select value={account.defaultUserLevel ?? "member"} onChange={(e) => change((e.target as HTMLSelectElement).value as "member" | "contributor")}>
          <option value="member">Member</option>
          <option value="contributor">Contributor</option>
        </select>
      </label>
      <p class="muted small" role="status" aria-live="polite">{saved ?? ""}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}

/** "web: reviewer" → "reviewer"; none → "no level". */
const levelOf = (text: string | null) => (text ? text.slice(text.indexOf(":") + 2) : "no level");

/** "Changed web: autoApprovedBranchGlob main → release/*" from the JSON objects stored. */
function projectUpdate(entry: AuditEntry) {
  try {
    const before = JSON.parse(entry.before ?? "{}");
    const after = JSON.parse(entry.after ?? "{}");
    const shown = (value: unknown) => (value === null || value === undefined ? "none" : typeof value === "string" ? value : JSON.stringify(value));
    const fields = Object.keys(after).filter((key) => key !== "project");
    return `Changed ${before.project}: ${fields.map((key) => `${key} ${shown(before[key])} → ${shown(after[key])}`).join(", ")}`;
  } catch {
    return "Changed a project";
  }
}

/** One sentence per kind of change the server records; an unknown kind reads as its name. */
function describe(entry: AuditEntry) {
  const who = entry.subject ? `@${entry.subject.slug}` : "someone";
  switch (entry.action) {
    case "member.role":
      return `${who}: role ${entry.before ?? "none"} → ${entry.after ?? "none"}`;
    case "member.join":
      return `${who} joined${entry.after ? ` as ${entry.after}` : ""}`;
    case "member.remove":
      return `${who} left the team`;
    case "invite.create":
      return `Invited ${entry.after ?? "someone"}`;
    case "invite.cancel":
      return `Cancelled the invite of ${entry.before ?? "someone"}`;
    case "inviteLink.reset":
      return "Reset the invite link";
    case "domain.add":
      return `Opened the team to ${entry.after}`;
    case "domain.remove":
      return `Closed the team to ${entry.before}`;
    case "project.update":
      return projectUpdate(entry);
    case "project.contributor":
      return `${who} on ${(entry.after ?? entry.before ?? "").split(":")[0]}: ${levelOf(entry.before)} → ${levelOf(entry.after)}`;
    case "project.transfer":
      return `Moved ${entry.before} to ${entry.after}`;
    case "project.delete":
      return `Deleted the project ${entry.before}`;
    case "account.defaultUserLevel":
      return `Default role ${entry.before ?? "member"} → ${entry.after}`;
    default:
      return entry.action;
  }
}

function AuditTrail({ account, version }: { account: string; version: number }) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  useEffect(() => {
    api.accountAudit(account).then((page) => setEntries(page.results), () => setEntries([]));
  }, [account, version]);
  if (!entries) return null;
  return (
    <section aria-label="Recent changes">
      <h2 class="section-title">Recent changes</h2>
      {entries.length === 0 && <p class="muted">Nothing changed yet.</p>}
      <ul class="plain-list audit-list">
        {entries.map((entry) => (
          <li key={entry.id}>
            <span>{describe(entry)}</span>
            <span class="muted small">
              {entry.actor ? `by @${entry.actor.slug}` : "by the server"} · {relativeTime(entry.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TeamSettingsPage({ session, account }: { session: Session; account: string }) {
  const [details, setDetails] = useState<AccountDetails | null>(null);
  const [admin, setAdmin] = useState(false);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.account(account).then(setDetails, (e) =>
      setError(e instanceof ApiError && e.status === 404 ? "No such account, or you are not in it." : (e as Error).message),
    );
  }, [account]);
  useEffect(() => {
    if (details) api.accountPermissions(account).then((held) => setAdmin(held.includes("admin")), () => setAdmin(false));
  }, [details, version]);

  const [mailed, setMailed] = useState(false);
  useEffect(() => {
    if (session.plugins.includes("notifications"))
      api.notificationSettings().then((settings) => setMailed(settings.mailConfigured), () => setMailed(false));
  }, []);
  const changed = () => setVersion((v) => v + 1);
  return (
    <div class="page page-narrow">
      <h1 class="page-title">{details?.name ?? account} settings</h1>
      {error && <p class="form-error" role="alert">{error}</p>}
      {details && (
        <>
          <Usage account={details} />
          {details.type === "team" && (
            <>
              {admin ? <DefaultRole account={details} onSaved={setDetails} /> : null}
              <TeamMembersSection account={account} admin={admin} onChange={changed} />
              {admin && <TeamInvitesSection account={account} mailed={mailed} onChange={changed} />}
              <TeamDomainsSection account={account} admin={admin} onChange={changed} />
            </>
          )}
          {admin && session.plugins.includes("automation") && <TeamChatSection account={account} />}
          {details.type === "team" && admin && <AuditTrail account={account} version={version} />}
        </>
      )}
    </div>
  );
}
