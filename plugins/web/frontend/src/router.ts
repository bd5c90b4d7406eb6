// The page's routes, matched in the browser (the server answers index.html for each of them).
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "login"; next: string }
  | { page: "oauthConsent"; query: URLSearchParams }
  | { page: "join"; token: string }
  | { page: "home" }
  | { page: "settings" }
  | { page: "account"; account: string; query: URLSearchParams }
  | { page: "project"; account: string; project: string; query: URLSearchParams }
  | { page: "deployments"; account: string; project: string; query: URLSearchParams }
  | { page: "activity"; account: string; project: string; query: URLSearchParams }
  | { page: "tests"; account: string; project: string; query: URLSearchParams }
  | { page: "media"; account: string; project: string; query: URLSearchParams }
  | { page: "mediaItem"; account: string; project: string; mediaId: string }
  | { page: "test"; account: string; project: string; testId: string; query: URLSearchParams }
  | { page: "projectSettings"; account: string; project: string }
  | { page: "teamSettings"; account: string }
  | { page: "build"; account: string; project: string; number: number; query: URLSearchParams }
  | { page: "notFound" };

export function parseRoute(location: Location | URL): Route {
  const parts = location.pathname
    .replace(/^\/v2(?=\/|$)/, "")
    .split("/")
    .filter(Boolean)
    .map(decodeURIComponent);
  const query = new URLSearchParams(location.search);
  if (parts.length === 0) return { page: "home" };
  if (parts[0] === "_loupe" && parts[1] === "login") return { page: "login", next: query.get("next") ?? "/" };
  if (parts[0] === "_loupe" && parts[1] === "oauth" && parts[2] === "authorize") return { page: "oauthConsent", query };
  if (parts[0] === "_loupe" && parts[1] === "join" && parts.length === 3) return { page: "join", token: parts[2] };
  if (parts[0] === "_loupe" && parts[1] === "settings" && parts.length === 2) return { page: "settings" };
  if (parts.length === 1) return { page: "account", account: parts[0], query };
  // "settings" is a reserved project name: /{account}/settings is the account's own page.
  if (parts.length === 2 && parts[1] === "settings") return { page: "teamSettings", account: parts[0] };
  if (parts.length === 2 || (parts.length === 3 && parts[2] === "builds"))
    return { page: "project", account: parts[0], project: parts[1], query };
  if (parts.length === 3 && parts[2] === "settings") return { page: "projectSettings", account: parts[0], project: parts[1] };
  if (parts.length === 3 && (parts[2] === "deployments" || parts[2] === "activity" || parts[2] === "tests" || parts[2] === "media"))
    return { page: parts[2], account: parts[0], project: parts[1], query };
  if (parts.length === 4 && parts[2] === "media" && /^[1-9]\d*$/.test(parts[3]))
    return { page: "mediaItem", account: parts[0], project: parts[1], mediaId: parts[3] };
  if (parts.length === 4 && parts[2] === "tests") return { page: "test", account: parts[0], project: parts[1], testId: parts[3], query };
  if (parts.length === 4 && parts[2] === "builds" && /^[1-9]\d*$/.test(parts[3]))
    return { page: "build", account: parts[0], project: parts[1], number: Number(parts[3]), query };
  return { page: "notFound" };
}

const listeners = new Set<() => void>();

export function navigate(href: string, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  listeners.forEach((listener) => listener());
}

/** Goes to `path` with `query` changed: a null or empty value removes its parameter. */
export function navigateWithQuery(path: string, query: URLSearchParams, changes: Record<string, string | null>) {
  const next = new URLSearchParams(query);
  for (const [key, value] of Object.entries(changes)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  const search = next.toString();
  navigate(path + (search ? `?${search}` : ""));
}

/** Updates the query string without a new history entry or a page change. */
export function setQuery(params: Record<string, string | null>) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === "") url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  history.replaceState(null, "", url);
}

export function useLocation() {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const update = () => setVersion((version) => version + 1);
    listeners.add(update);
    addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      removeEventListener("popstate", update);
    };
  }, []);
  return location;
}

/** Same-origin links navigate without reloading the page. */
export function onLinkClick(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = (event.target as Element).closest("a");
  if (!anchor || anchor.target || anchor.origin !== location.origin || anchor.hasAttribute("download")) return;
  if (anchor.pathname.startsWith("/_loupe/") && !anchor.pathname.startsWith("/_loupe/login")) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}

export const paths = {
  settings: "/_loupe/settings",
  account: (account: string) => `/${encodeURIComponent(account)}`,
  project: (account: string, project: string) => `/${encodeURIComponent(account)}/${encodeURIComponent(project)}`,
  deployments: (account: string, project: string) =>
    `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/deployments`,
  activity: (account: string, project: string) =>
    `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/activity`,
  tests: (account: string, project: string) => `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/tests`,
  media: (account: string, project: string) => `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/media`,
  mediaItem: (account: string, project: string, mediaId: string) =>
    `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/media/${encodeURIComponent(mediaId)}`,
  test: (account: string, project: string, testId: string) =>
    `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/tests/${encodeURIComponent(testId)}`,
  teamSettings: (account: string) => `/${encodeURIComponent(account)}/settings`,
  projectSettings: (account: string, project: string) =>
    `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/settings`,
  build: (account: string, project: string, number: number) =>
    `/${encodeURIComponent(account)}/${encodeURIComponent(project)}/builds/${number}`,
};
