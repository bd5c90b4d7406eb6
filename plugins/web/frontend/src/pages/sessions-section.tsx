// The settings page's browser sessions: where the person is signed in (browser, since when,
// last seen), this one marked; signing out of one, or of every other one at once (a lost laptop,
// a shared computer). A signed-out session meets the sign-in page at its next request.
import { useEffect, useState } from "preact/hooks";
import { api, type BrowserSession } from "../api";
import { relativeTime } from "../format";

/** "Firefox on Linux" from a User-Agent; the raw string when nothing is recognised. */
export function browserName(userAgent: string) {
  const browser =
    [
      ["Edg/", "Edge"],
      ["Firefox/", "Firefox"],
      ["Chrome/", "Chrome"],
      ["Chromium/", "Chromium"],
      ["Safari/", "Safari"],
    ].find(([marker]) => userAgent.includes(marker))?.[1] ?? null;
  const system =
    [
      ["Windows", "Windows"],
      ["Mac OS X", "macOS"],
      ["Android", "Android"],
      ["iPhone", "iOS"],
      ["Linux", "Linux"],
    ].find(([marker]) => userAgent.includes(marker))?.[1] ?? null;
  if (!browser) return userAgent || "Unknown browser";
  return system ? `${browser} on ${system}` : browser;
}

export function SessionsSection() {
  const [sessions, setSessions] = useState<BrowserSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = () => api.ownSessions().then(setSessions, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, []);

  const act = async (action: () => Promise<string>) => {
    setError(null);
    try {
      setNotice(await action());
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const others = sessions?.filter((session) => !session.current).length ?? 0;

  return (
    <section aria-label="Sessions">
      <h2 class="section-title">Sessions</h2>
      <p class="muted small">The browsers signed in as you.</p>
      {sessions && (
        <table class="builds-table tokens-table" aria-label="Your sessions">
          <thead>
            <tr>
              <th>Browser</th>
              <th>Signed in</th>
              <th>Last seen</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td title={session.userAgent}>
                  {browserName(session.userAgent)}
                  {session.current && <span class="badge badge-current">This browser</span>}
                </td>
                <td>{relativeTime(session.createdAt)}</td>
                <td>{relativeTime(session.lastSeenAt)}</td>
                <td class="token-actions">
                  {!session.current && (
                    <button type="button" class="link-button small" aria-label={`Sign out ${browserName(session.userAgent)} (${session.id})`}
                      onClick={() => act(() => api.signOutSession(session.id).then(() => "Signed out."))}>
                      Sign out
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <button type="button" class="button" disabled={others === 0}
          onClick={() => act(() => api.signOutOtherSessions().then((n) => `Signed out of ${n} other session${n === 1 ? "" : "s"}.`))}>
          Sign out of all other sessions
        </button>
      </p>
      <p class="muted small" role="status" aria-live="polite">{notice ?? ""}</p>
      {error && <p class="form-error" role="alert">{error}</p>}
    </section>
  );
}
