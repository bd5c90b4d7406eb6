// One page of an API list (builds, deployments): `?page=` from the URL, 30 per page, the
// list's filters as query parameters (empty ones left out). Reloads when any of them changes.
import { useEffect, useState } from "preact/hooks";
import type { Page } from "../api";

export const perPage = 30;

export function useListPage<T>(
  load: (params: Record<string, string>) => Promise<Page<T>>,
  query: URLSearchParams,
  filters: Record<string, string>,
  enabled = true,
) {
  const page = Math.max(1, Number(query.get("page")) || 1);
  const [result, setResult] = useState<Page<T> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify([page, filters]);
  useEffect(() => {
    if (!enabled) return;
    setResult(null);
    setError(null);
    const params: Record<string, string> = { page: String(page), perPage: String(perPage) };
    for (const [name, value] of Object.entries(filters)) if (value) params[name] = value;
    load(params).then(setResult, (e) => setError(e.message));
  }, [key, enabled]);
  const pages = result ? Math.max(1, Math.ceil(result.pageInfo.total / perPage)) : 1;
  return { page, result, error, pages };
}
