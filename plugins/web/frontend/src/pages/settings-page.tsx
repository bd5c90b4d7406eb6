// The signed-in person's settings (`/_loupe/settings`): their personal access tokens, their
// browser sessions, and which notification mails they get. Each
// switch saves at once (PATCH /_loupe/notifications/settings); "All notification mail" off
// silences every kind whatever its own switch says.
import { useEffect, useState } from "preact/hooks";
import { api, type NotificationSettings, type Session } from "../api";
import { ApplicationsSection } from "./applications-section";
import { PersonalTokensSection } from "./personal-tokens-section";
import { SessionsSection } from "./sessions-section";

type Kind = Exclude<keyof NotificationSettings, "mailConfigured" | "email">;

const kinds: { field: Kind; label: string; hint: string }[] = [
  { field: "mentions", label: "Mentions", hint: "Someone writes @you in a comment." },
  { field: "threadReplies", label: "Replies", hint: "A reply in a thread you follow (you follow the threads you write in)." },
  { field: "reviewRequests", label: "Review requests", hint: "Someone asks you to review a build." },
  { field: "buildReviews", label: "Decisions on builds you follow", hint: "A build you commented on, reviewed or asked a review of is approved or gets a change request." },
  { field: "buildStatuses", label: "Builds you follow concluding", hint: "A build you follow is processed: it has changes to review, or none." },
  { field: "testComments", label: "Comments on tests you follow", hint: "Someone comments on a test you commented on or follow." },
];

function NotificationSection() {
  const [settings, setSettings] = useState<NotificationSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    api.notificationSettings().then(setSettings, (e) => setError((e as Error).message));
  }, []);

  // The switch moves at once; a refused change puts it back and says why.
  const change = async (field: Kind, value: boolean) => {
    if (!settings) return;
    const before = settings;
    setSettings({ ...settings, [field]: value });
    setError(null);
    setSaved(null);
    try {
      setSettings(await api.updateNotificationSettings({ [field]: value }));
      setSaved("Saved");
    } catch (e) {
      setSettings(before);
      setError((e as Error).message);
    }
  };

  if (!settings) return error ? <p class="form-error" role="alert">{error}</p> : <p class="muted" aria-busy="true">Loading…</p>;
  return (
    <>
      {!settings.mailConfigured && (
        <p class="callout">This server sends no mail yet: an operator sets <code>mail.host</code> to turn notifications on.</p>
      )}
      <p class="muted small">
        {settings.email ? <>Mail goes to <strong>{settings.email}</strong>.</> : "You have no email address: ask an admin, or sign in with your identity provider."}
      </p>
      <label class="setting setting-main">
        <input type="checkbox" checked={settings.enabled} onChange={(e) => change("enabled", (e.target as HTMLInputElement).checked)} />
        <span>
          <strong>All notification mail</strong>
          <span class="muted small">Off: Loupe mails you nothing, whatever is chosen below.</span>
        </span>
      </label>
      <fieldset class="settings-group" disabled={!settings.enabled}>
        <legend class="panel-subtitle">Mail me about</legend>
        {kinds.map((kind) => (
          <label class="setting" key={kind.field}>
            <input type="checkbox" checked={settings[kind.field]} onChange={(e) => change(kind.field, (e.target as HTMLInputElement).checked)} />
            <span>
              <strong>{kind.label}</strong>
              <span class="muted small">{kind.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <p class="muted small" role="status" aria-live="polite">{saved ?? ""}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
    </>
  );
}

export function SettingsPage({ session }: { session: Session }) {
  return (
    <div class="page page-narrow">
      <h1 class="page-title">Settings</h1>
      <PersonalTokensSection session={session} />
      <SessionsSection />
      {session.plugins.includes("oauth") && <ApplicationsSection />}
      <section aria-label="Notifications">
        <h2 class="section-title">Notifications</h2>
        {session.plugins.includes("notifications") ? (
          <NotificationSection />
        ) : (
          <p class="muted">Notification mail needs the notifications plugin (plugins.enabled).</p>
        )}
      </section>
    </div>
  );
}
