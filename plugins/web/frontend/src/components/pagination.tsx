/** "Newer / Page n of m / Older" under a list; nothing when everything fits on one page. */
export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav class="pagination" aria-label="Pages">
      <button type="button" class="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Newer
      </button>
      <span class="muted">
        Page {page} of {pages}
      </span>
      <button type="button" class="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Older
      </button>
    </nav>
  );
}
