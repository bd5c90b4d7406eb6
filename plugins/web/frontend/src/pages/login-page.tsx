// Sign-in: the company's identity providers (the sso plugin; the browser leaves for the provider
// and comes back signed in, or here with `?error=`), a one-time link (its token travels in the
// URL fragment, never to the server's logs) or a personal access token, each exchanged for a
// session cookie.
import { useEffect, useState } from "preact/hooks";
import { api, setCsrfToken, type Session, type SignInProvider } from "../api";
import { navigate } from "../router";

interface Props {
  session: Session;
  next: string;
  onSignedIn: (session: Session) => void;
}

function safeNext(next: string) {
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

export function LoginPage({ session, next, onSignedIn }: Props) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(() => new URLSearchParams(location.search).get("error"));
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<SignInProvider[]>([]);

  const done = (signedIn: Session) => {
    setCsrfToken(signedIn.csrfToken ?? "");
    onSignedIn(signedIn);
    navigate(safeNext(next), { replace: true });
  };

  useEffect(() => {
    if (!session.plugins.includes("sso")) return;
    api.signInProviders().then(
      (answer) => setProviders(answer.providers),
      () => setProviders([]),
    );
  }, []);

  useEffect(() => {
    const link = new URLSearchParams(location.hash.slice(1)).get("link");
    if (link) {
      history.replaceState(null, "", location.pathname + location.search);
      setBusy(true);
      api.signInWithLink(link).then(done, (e) => {
        setError(e.message);
        setBusy(false);
      });
    } else if (session.user) {
      navigate(safeNext(next), { replace: true });
    }
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      done(await api.signInWithToken(token.trim()));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <div class="login">
      <form class="login-card" onSubmit={submit} aria-busy={busy}>
        <h1>Sign in to Loupe</h1>
        <p class="muted">Review visual changes of your builds.</p>
        {providers.map((provider) => (
          <a
            key={provider.id}
            class="button button-primary login-provider"
            href={`${provider.startUrl}?next=${encodeURIComponent(safeNext(next))}`}
          >
            Sign in with {provider.name}
          </a>
        ))}
        {providers.length > 0 && <p class="login-divider muted small">or with a personal access token</p>}
        <label for="token">Personal access token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          placeholder="arp_…"
          value={token}
          onInput={(e) => setToken((e.target as HTMLInputElement).value)}
          required
        />
        <button type="submit" class={providers.length ? "button" : "button button-primary"} disabled={busy || !token.trim()}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <p class="muted small">
          No token? An administrator can print a one-time sign-in link with{" "}
          <code>loupe admin user login-link --user &lt;you&gt;</code>.
        </p>
      </form>
    </div>
  );
}
