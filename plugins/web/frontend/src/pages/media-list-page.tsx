// A project's media (`/{account}/{project}/media`): the images and videos shared for review,
// newest first, a before/after pair as one card; a search (name or description), the kind and
// the stage as filters. Each card opens the media's page.
import { api, type Media, type Session } from "../api";
import { groupMedia, type MediaGroup } from "../build/media-groups";
import { SearchFilter, SelectFilter } from "../components/filter-bar";
import { isVideo, MediaPreview } from "../components/media-preview";
import { Pagination } from "../components/pagination";
import { ProjectFrame } from "../components/project-tabs";
import { relativeTime } from "../format";
import { useListPage } from "../hooks/use-list-page";
import { navigateWithQuery, paths } from "../router";

interface Props {
  session: Session;
  account: string;
  project: string;
  query: URLSearchParams;
}

function where(media: Media) {
  if (media.prNumber !== null) return `PR #${media.prNumber}`;
  return media.branch ? `staged on ${media.branch}` : "staged";
}

function MediaCard({ account, project, group }: { account: string; project: string; group: MediaGroup }) {
  const sides = group.single ? [group.single] : [group.before, group.after].filter((m): m is Media => m !== null);
  const first = sides[0];
  return (
    <li class="media-card">
      <div class={`media-card-files${sides.length > 1 ? " media-pair" : ""}`}>
        {sides.map((media) => (
          <a key={media.id} href={paths.mediaItem(account, project, media.id)} class="media-card-side">
            <MediaPreview file={media} name={`${media.name}${media.state ? ` (${media.state})` : ""}`} controls={false} />
            {media.state && <span class="tag">{media.state === "before" ? "Before" : "After"}</span>}
            {/* No poster frame is made: the browser shows the first frame, marked as a video. */}
            {isVideo(media.contentType) && <span class="media-card-play" aria-hidden="true">▶</span>}
          </a>
        ))}
      </div>
      <div class="media-card-text">
        <a class="media-card-name" href={paths.mediaItem(account, project, first.id)}>{group.name}</a>
        <span class="muted small">
          {where(first)} · v{Math.max(...sides.map((m) => m.version))} · {relativeTime(first.createdAt)}
        </span>
        {first.description && <span class="small ellipsis" title={first.description}>{first.description}</span>}
      </div>
    </li>
  );
}

export function MediaListPage({ session, account, project, query }: Props) {
  const search = query.get("search") ?? "";
  const type = query.get("type") ?? "";
  const stage = query.get("stage") ?? "";
  const { page, result, error, pages } = useListPage((params) => api.mediaList(account, project, params), query, { search, type, stage });
  const go = (changes: Record<string, string | null>) => navigateWithQuery(paths.media(account, project), query, changes);
  const filtered = Boolean(search || type || stage);
  return (
    <ProjectFrame session={session} account={account} project={project} section="media" error={error}
      head={
        <div class="filters">
          <SearchFilter label="Media" value={search} placeholder="Search media" onChange={(value) => go({ search: value, page: null })} />
          <SelectFilter label="Kind" name="kind" value={type} any="Any kind" options={[["image", "Images"], ["video", "Videos"]]}
            onChange={(value) => go({ type: value, page: null })} />
          <SelectFilter label="Stage" name="stage" value={stage} any="Any stage" options={[["published", "On a pull request"], ["staged", "Staged on a branch"]]}
            onChange={(value) => go({ stage: value, page: null })} />
        </div>
      }>
      {!result && !error && <p class="muted" aria-busy="true">Loading…</p>}
      {result && result.results.length > 0 && (
        <ul class="media-grid" aria-label="Media">
          {groupMedia(result.results).map((group) => <MediaCard key={group.key} account={account} project={project} group={group} />)}
        </ul>
      )}
      {result && result.results.length === 0 && (
        <p class="empty">{filtered ? "No media matches the filters." : "No media yet: share screenshots and recordings with `argos media upload`."}</p>
      )}
      {result && <Pagination page={page} pages={pages} onPage={(next) => go({ page: String(next) })} />}
    </ProjectFrame>
  );
}
