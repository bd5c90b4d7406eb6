// The page an invite link opens (`/_loupe/join/{token}`): which team it opens, with which role,
// and, for an invite sent by email, to which address; the signed-in person joins with one click
// and lands on the team's page. An invite for another address, a used or cancelled one, or an
// expired one says so and joins nothing.
import { useEffect, useState } from "preact/hooks";
import { api, type InvitePreview, type UserRef } from "../api";

const roleWords: Record<string, string> = {
  owner: "an owner: you will administer the team",
  member: "a member: you will see every project of the team",
  contributor: "a contributor: you will see the projects you are added to",
};

export function JoinTeamPage({ token, user }: { token: string; user: UserRef }) {
  const [invite, setInvite] = useState<InvitePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.invite(token).then(setInvite, (e) => setError((e as Error).message));
  }, [token]);

  const join = async () => {
    setBusy(true);
    try {
      const { team } = await api.acceptInvite(token);
      // A full load: the session's list of teams now holds this one.
      location.assign(`/${encodeURIComponent(team.slug)}`);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  const teamName = invite ? invite.team.name || invite.team.slug : "";
  return (
    <div class="login">
      <div class="login-card consent-card" aria-busy={busy || (!invite && !error)}>
        {error && (
          <>
            <h1>This invite cannot be used</h1>
            <p class="form-error" role="alert">
              {error}
            </p>
            <p class="muted small">Ask a team owner for a new invite.</p>
          </>
        )}
        {invite && !error && (
          <>
            <h1>Join {teamName}?</h1>
            <p class="muted">
              You are signed in as <strong>{user.name}</strong> ({user.slug}). You will join{" "}
              <strong>{teamName}</strong> as {roleWords[invite.level] ?? invite.level}.
            </p>
            {invite.email && <p class="muted small">This invite was sent to {invite.email}.</p>}
            {invite.expired ? (
              <p class="form-error" role="alert">
                This invite expired: ask a team owner to send it again.
              </p>
            ) : (
              <button type="button" class="button button-primary" disabled={busy} onClick={join}>
                Join {teamName}
              </button>
            )}
          </>
        )}
      </div>
    </div>
  );
}
