// The consent page of `argos login`: which application asks to act for the signed-in person,
// with which permissions, and where the answer goes (the application's loopback address on
// this computer). Approving sends the browser back there with a one-use code; denying, with
// `error=access_denied`.
import { useEffect, useState } from "preact/hooks";
import { api, type OAuthRequest } from "../api";

export function OAuthConsentPage({ query }: { query: URLSearchParams }) {
  const [request, setRequest] = useState<OAuthRequest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.oauthRequest(query).then(setRequest, (e) => setError((e as Error).message));
  }, []);

  const decide = async (approve: boolean) => {
    setBusy(true);
    try {
      const { redirectUrl } = await api.oauthDecision(query, approve);
      location.assign(redirectUrl);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <div class="login">
      <div class="login-card consent-card" aria-busy={busy || (!request && !error)}>
        {error && (
          <>
            <h1>This sign-in request cannot be used</h1>
            <p class="form-error" role="alert">
              {error}
            </p>
            <p class="muted small">Run the command again to start over.</p>
          </>
        )}
        {request && !error && (
          <>
            <h1>Sign in to {request.client.name}?</h1>
            <p class="muted">
              {request.client.name} asks to act as <strong>{request.user.name}</strong> ({request.user.slug}) with
              these permissions:
            </p>
            <ul class="consent-scopes">
              {request.scopes.map((scope) => (
                <li key={scope.name}>
                  {scope.description} <code>{scope.name}</code>
                </li>
              ))}
            </ul>
            <p class="muted small">
              The answer goes to <code>{new URL(request.redirectUri).host}</code> on this computer. Approve only if you
              just ran <code>argos login</code>.
            </p>
            <button type="button" class="button button-primary" disabled={busy} onClick={() => decide(true)}>
              Approve
            </button>
            <button type="button" class="button" disabled={busy} onClick={() => decide(false)}>
              Deny
            </button>
          </>
        )}
      </div>
    </div>
  );
}
