import type { Session } from "../api";
import { paths, type Route } from "../router";

interface Props {
  session: Session;
  route: Route;
  onSignOut: () => void;
}

/** Logo, breadcrumbs of the current page, and the signed-in user. */
export function TopBar({ session, route, onSignOut }: Props) {
  const crumbs: { href: string; text: string }[] = [];
  if ("account" in route) crumbs.push({ href: paths.account(route.account), text: route.account });
  if ("project" in route) crumbs.push({ href: paths.project(route.account, route.project), text: route.project });
  if (route.page === "build")
    crumbs.push({ href: paths.build(route.account, route.project, route.number), text: `Build #${route.number}` });
  return (
    <header class="top-bar">
      <a class="logo" href="/" aria-label="Loupe home">
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <circle cx="8" cy="8" r="5.5" fill="none" stroke="currentColor" stroke-width="2" />
          <path d="M12.2 12.2 17 17" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" />
        </svg>
        Loupe
      </a>
      <nav class="crumbs" aria-label="Breadcrumbs">
        {crumbs.map((crumb, i) => (
          <span key={crumb.href}>
            <span class="crumb-sep" aria-hidden="true">
              /
            </span>
            {i === crumbs.length - 1 ? (
              <span aria-current="page">{crumb.text}</span>
            ) : (
              <a href={crumb.href}>{crumb.text}</a>
            )}
          </span>
        ))}
      </nav>
      <div class="top-bar-user">
        <a class="user-name" href={paths.settings} aria-label={`${session.user?.name ?? session.user?.slug}: settings`}
          title={`${session.user?.slug ?? ""}: settings`}>
          {session.user?.name ?? session.user?.slug}
        </a>
        <button type="button" class="button button-quiet" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
