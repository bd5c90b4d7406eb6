// A media's page (`/{account}/{project}/media/{mediaId}`): the file at its newest version with
// its pinned comment threads (or an older version, chosen), a before/after slider when the other
// side of its pair exists, what it is (where it was shared, its size and kind), its share link
// and Markdown, and its versions.
import { useEffect, useState } from "preact/hooks";
import { api, type Media, type MediaVersion, type Session } from "../api";
import { counterpartOf } from "../build/media-groups";
import { PinnedMedia } from "../components/media-pins";
import { isVideo, MediaPreview } from "../components/media-preview";
import { ProjectFrame } from "../components/project-tabs";
import { fileSize, relativeTime } from "../format";
import { paths } from "../router";

interface Props {
  session: Session;
  account: string;
  project: string;
  mediaId: string;
}

/** Two pictures, one over the other; the range shows as much of the "after" as it says. */
function BeforeAfterSlider({ before, after, name }: { before: Media; after: Media; name: string }) {
  const [split, setSplit] = useState(50);
  return (
    <figure class="before-after" aria-label="Before and after">
      <div class="before-after-stack">
        <img src={before.fileUrl} alt={`${name} before`} class="media-file" />
        <img src={after.fileUrl} alt={`${name} after`} class="media-file before-after-top" style={{ clipPath: `inset(0 0 0 ${split}%)` }} />
        <span class="before-after-line" style={{ left: `${split}%` }} aria-hidden="true" />
      </div>
      <label class="before-after-range">
        <span>Before</span>
        <input type="range" min={0} max={100} value={split} aria-label="Before and after split" onInput={(e) => setSplit(Number((e.target as HTMLInputElement).value))} />
        <span>After</span>
      </label>
    </figure>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <label class="copy-field">
      <span class="muted small">{label}</span>
      <span class="copy-row">
        <input readOnly value={value} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        <button type="button" onClick={() => navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false))}>
          {copied ? "Copied" : "Copy"}
        </button>
      </span>
    </label>
  );
}

export function MediaPage({ session, account, project, mediaId }: Props) {
  const [media, setMedia] = useState<Media | null>(null);
  const [versions, setVersions] = useState<MediaVersion[]>([]);
  const [other, setOther] = useState<Media | null>(null);
  const [shown, setShown] = useState<MediaVersion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [canComment, setCanComment] = useState(false);
  const withComments = session.plugins.includes("reviews");

  useEffect(() => {
    api.projectPermissions(account, project).then((held) => setCanComment(held.includes("review")), () => setCanComment(false));
  }, [account, project]);
  useEffect(() => {
    api.media(mediaId).then(async (found) => {
      setMedia(found);
      const [list, pair] = await Promise.all([
        api.mediaVersions(mediaId),
        found.state ? api.mediaList(account, project, { search: found.name, perPage: "100" }) : Promise.resolve(null),
      ]);
      setVersions(list);
      setOther(pair ? counterpartOf(found, pair.results) : null);
    }).catch((e) => setError(e.message));
  }, [mediaId]);

  const title = media ? `${media.name}${media.state ? ` (${media.state})` : ""}` : "Media";
  const current = shown && media && shown.number !== media.version ? shown : null;
  const pair = !current && media && other && !isVideo(media.contentType) && !isVideo(other.contentType)
    ? (media.state === "before" ? { before: media, after: other } : { before: other, after: media })
    : null;
  return (
    <ProjectFrame session={session} account={account} project={project} section="media" error={error}
      head={<a class="small" href={paths.media(account, project)}>All media</a>}>
      {!media && !error && <p class="muted" aria-busy="true">Loading…</p>}
      {media && (
        <div class="media-page">
          <section class="media-view" aria-label="File">
            <h2 class="media-title">
              {title} {media.status === "pending" && <span class="tag">Waiting for its upload</span>}
            </h2>
            {current ? (
              <>
                <p class="small muted">Version {current.number}: pins are placed on the newest version.</p>
                <MediaPreview file={current} name={title} />
              </>
            ) : withComments && media.status === "ready" ? (
              <PinnedMedia session={session} mediaId={media.id} file={media} name={title} canComment={canComment} />
            ) : (
              <MediaPreview file={media} name={title} />
            )}
            {pair && (
              <>
                <h3 class="small-title">Before and after</h3>
                <BeforeAfterSlider before={pair.before} after={pair.after} name={media.name} />
              </>
            )}
            {other && (
              <p class="small">
                The {other.state} side: <a href={paths.mediaItem(account, project, other.id)}>{other.name} ({other.state})</a>
              </p>
            )}
          </section>
          <aside class="media-facts">
            <dl class="facts">
              <dt>Shared</dt>
              <dd>{media.prNumber !== null ? `On pull request #${media.prNumber}` : media.branch ? `Staged on ${media.branch}` : "Staged"}</dd>
              <dt>Who sees it</dt>
              <dd>{media.visibility === "public" ? "Anyone with the link" : "The team"}</dd>
              <dt>File</dt>
              <dd>
                {media.contentType} · {fileSize(media.sizeBytes)}
                {media.width && media.height ? ` · ${media.width}×${media.height}` : ""}
              </dd>
              <dt>Uploaded</dt>
              <dd>{relativeTime(media.createdAt)}</dd>
              {media.description && (
                <>
                  <dt>Description</dt>
                  <dd>{media.description}</dd>
                </>
              )}
            </dl>
            <CopyField label="Share link" value={media.url} />
            <CopyField label="Markdown" value={media.markdown} />
            <h3 class="small-title">Versions ({versions.length})</h3>
            <ol class="media-versions" aria-label="Versions">
              {versions.map((version) => {
                const active = (current?.number ?? media.version) === version.number;
                return (
                  <li key={version.id}>
                    <button type="button" class={active ? "link-button active" : "link-button"} aria-pressed={active} onClick={() => setShown(version)}>
                      Version {version.number}
                    </button>
                    <span class="muted small"> {fileSize(version.sizeBytes)} · {relativeTime(version.createdAt)}</span>
                  </li>
                );
              })}
            </ol>
          </aside>
        </div>
      )}
    </ProjectFrame>
  );
}
