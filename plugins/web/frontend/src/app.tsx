// The shell: the session, the top bar and the page for the current URL.
import { useEffect, useState } from "preact/hooks";
import { api, setCsrfToken, setUnauthorizedHandler, type Session } from "./api";
import { navigate, onLinkClick, parseRoute, useLocation } from "./router";
import { TopBar } from "./components/top-bar";
import { LoginPage } from "./pages/login-page";
import { SettingsPage } from "./pages/settings-page";
import { ProjectSettingsPage } from "./pages/project-settings-page";
import { TestPage } from "./pages/test-page";
import { TestsPage } from "./pages/tests-page";
import { MediaListPage } from "./pages/media-list-page";
import { MediaPage } from "./pages/media-page";
import { TeamSettingsPage } from "./pages/team-settings-page";
import { HomePage } from "./pages/home-page";
import { AccountPage } from "./pages/account-page";
import { ProjectPage } from "./pages/project-page";
import { BuildPage } from "./pages/build-page";
import { DeploymentsPage } from "./pages/deployments-page";
import { ActivityPage } from "./pages/activity-page";
import { Message } from "./components/message";
import { JoinTeamPage } from "./pages/join-team-page";
import { OAuthConsentPage } from "./pages/oauth-consent-page";

function toLogin() {
  const here = location.pathname + location.search;
  if (!location.pathname.startsWith("/_loupe/login"))
    navigate(`/_loupe/login?next=${encodeURIComponent(here)}`, { replace: true });
}

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<string | null>(null);

  const adopt = (next: Session) => {
    setCsrfToken(next.csrfToken ?? "");
    setSession(next);
  };

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setSession((current) => (current ? { ...current, user: null } : current));
      toLogin();
    });
    api.session().then(adopt, (e) => setError(String(e.message ?? e)));
  }, []);

  useEffect(() => {
    document.addEventListener("click", onLinkClick);
    return () => document.removeEventListener("click", onLinkClick);
  }, []);

  const route = parseRoute(location);
  useEffect(() => {
    if (session && !session.user && route.page !== "login") toLogin();
  }, [session, route.page]);

  if (error) return <Message title="Loupe is unreachable" text={error} />;
  if (!session) return <div class="boot" aria-busy="true" />;
  if (route.page === "login" || !session.user)
    return <LoginPage session={session} next={route.page === "login" ? route.next : "/"} onSignedIn={adopt} />;

  if (route.page === "oauthConsent") return <OAuthConsentPage query={route.query} />;
  if (route.page === "join") return <JoinTeamPage token={route.token} user={session.user} />;

  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setCsrfToken("");
    setSession({ ...session, user: null, accounts: [] });
    navigate("/_loupe/login", { replace: true });
  };

  return (
    <div class="shell">
      <TopBar session={session} route={route} onSignOut={signOut} />
      <main class="content">
        {route.page === "home" && <HomePage session={session} />}
        {route.page === "settings" && <SettingsPage session={session} />}
        {route.page === "account" && <AccountPage session={session} account={route.account} query={route.query} />}
        {route.page === "project" && (
          <ProjectPage key={`${route.account}/${route.project}`} session={session} account={route.account} project={route.project} query={route.query} />
        )}
        {route.page === "deployments" && (
          <DeploymentsPage key={`${route.account}/${route.project}`} session={session} account={route.account} project={route.project} query={route.query} />
        )}
        {route.page === "activity" && (
          <ActivityPage key={`${route.account}/${route.project}`} session={session} account={route.account} project={route.project} query={route.query} />
        )}
        {route.page === "tests" && (
          <TestsPage key={`${route.account}/${route.project}`} session={session} account={route.account} project={route.project} query={route.query} />
        )}
        {route.page === "media" && (
          <MediaListPage key={`${route.account}/${route.project}`} session={session} account={route.account} project={route.project} query={route.query} />
        )}
        {route.page === "mediaItem" && (
          <MediaPage key={`${route.account}/${route.project}/${route.mediaId}`} session={session} account={route.account} project={route.project}
            mediaId={route.mediaId} />
        )}
        {route.page === "test" && (
          <TestPage key={`${route.account}/${route.project}/${route.testId}`} session={session} account={route.account} project={route.project}
            testId={route.testId} query={route.query} />
        )}
        {route.page === "teamSettings" && <TeamSettingsPage key={route.account} session={session} account={route.account} />}
        {route.page === "projectSettings" && (
          <ProjectSettingsPage key={`${route.account}/${route.project}`} session={session} account={route.account} project={route.project} />
        )}
        {route.page === "build" && (
          <BuildPage
            key={`${route.account}/${route.project}/${route.number}`}
            session={session}
            account={route.account}
            project={route.project}
            number={route.number}
            query={route.query}
          />
        )}
        {route.page === "notFound" && <Message title="Page not found" text="There is no page at this address." />}
      </main>
    </div>
  );
}
