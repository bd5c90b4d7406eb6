// Comments pinned on a media: the file with its pins (numbered as their threads read), a mode in
// which a click on the picture places a new pin (on a video: at the moment it shows, which the
// pin keeps; a click on its pin goes back there), and the threads beside it.
import { useEffect, useRef, useState } from "preact/hooks";
import { type Comment, commentsAt, mediaPath, type Session } from "../api";
import { commentActions, NewComment, threadsOf, ThreadView } from "./comment-threads";
import { isVideo } from "./media-preview";

interface Point {
  x: number;
  y: number;
  time?: number;
}

/** "1:05.2" for 65.24 seconds: tenths, as screen recordings are often a few seconds long. */
export function videoMoment(seconds: number) {
  const tenths = Math.floor(seconds * 10);
  const whole = Math.floor(tenths / 10);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}.${tenths % 10}`;
}

/** Where a click falls on the element, in fractions of its size; null outside. */
function pointOf(event: MouseEvent, element: HTMLElement): Point | null {
  const box = element.getBoundingClientRect();
  if (!box.width || !box.height) return null;
  const x = (event.clientX - box.left) / box.width;
  const y = (event.clientY - box.top) / box.height;
  return x < 0 || y < 0 || x > 1 || y > 1 ? null : { x, y };
}

export function PinnedMedia({ session, mediaId, file, name, canComment }: {
  session: Session;
  mediaId: string;
  file: { fileUrl: string; contentType: string };
  name: string;
  canComment: boolean;
}) {
  const [comments, setComments] = useState<Comment[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);
  const [draft, setDraft] = useState<Point | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const endpoints = commentsAt(mediaPath(mediaId));
  const load = () => endpoints.list().then(setComments, (e) => setError((e as Error).message));
  useEffect(() => {
    load();
  }, [mediaId]);
  const actions = commentActions(endpoints, load);
  const threads = threadsOf(comments ?? []);
  const pinned = threads.filter((t) => t.root.anchor?.type === "point");
  const playable = isVideo(file.contentType);

  const place = (event: MouseEvent) => {
    if (!placing || !stage.current) return;
    const point = pointOf(event, stage.current);
    if (!point) return;
    if (video.current) {
      video.current.pause();
      point.time = video.current.currentTime;
    }
    setDraft(point);
  };
  const open = (threadId: string) => {
    setActive(threadId);
    const time = threads.find((t) => t.root.id === threadId)?.root.anchor?.time;
    if (video.current && time !== undefined) {
      video.current.pause();
      video.current.currentTime = time;
    }
    document.querySelector(`[data-thread-id="${threadId}"]`)?.scrollIntoView({ block: "nearest" });
  };
  const where = (comment: Comment) => {
    const time = comment.anchor?.time;
    return time === undefined ? undefined : `at ${videoMoment(time)}`;
  };

  return (
    <div class="pinned-media">
      <div class={`pin-stage${placing ? " pin-stage-placing" : ""}`} ref={stage}>
        {playable ? (
          <video ref={video} class="media-file" src={file.fileUrl} controls preload="metadata" aria-label={name} />
        ) : (
          <img class="media-file" src={file.fileUrl} alt={name} />
        )}
        {/* Placing a pin: a layer over the file takes the click (a video's controls would). */}
        {placing && <div class="pin-catcher" aria-label="Click where the comment goes" onClick={place} />}
        {pinned.map((thread) => (
          <button key={thread.root.id} type="button"
            class={`pin${thread.root.resolvedAt ? " pin-resolved" : ""}${active === thread.root.id ? " pin-active" : ""}`}
            style={{ left: `${(thread.root.anchor!.x ?? 0) * 100}%`, top: `${(thread.root.anchor!.y ?? 0) * 100}%` }}
            aria-label={`Comment thread ${thread.label}${where(thread.root) ? ` ${where(thread.root)}` : ""}`}
            onClick={() => open(thread.root.id)}>
            {thread.label}
          </button>
        ))}
        {draft && <span class="pin pin-draft" style={{ left: `${draft.x * 100}%`, top: `${draft.y * 100}%` }} aria-hidden="true">+</span>}
      </div>
      {canComment && (
        <div class="pin-toolbar">
          <button type="button" class={`button button-small${placing ? " button-primary" : ""}`} aria-pressed={placing}
            onClick={() => {
              setPlacing(!placing);
              setDraft(null);
            }}>
            {placing ? "Stop pinning" : "Pin a comment"}
          </button>
          <span class="muted small">
            {placing ? (draft ? `New pin${draft.time !== undefined ? ` at ${videoMoment(draft.time)}` : ""}` : `Click the ${playable ? "video" : "picture"} where the comment goes`) : ""}
          </span>
        </div>
      )}
      {draft && (
        <NewComment placeholder="What is on this spot?" label="Comment on this spot" onCancel={() => setDraft(null)}
          onSubmit={async (text) => {
            const created = await endpoints.create({
              body: text,
              anchor: { type: "point", x: draft.x, y: draft.y, ...(draft.time !== undefined ? { time: draft.time } : {}) },
            });
            setDraft(null);
            setPlacing(false);
            setActive(created.id);
            await load();
          }} />
      )}
      <section class="comments media-comments" aria-label="Comments">
        <h3 class="small-title">Comments ({threads.length})</h3>
        {error && <p class="form-error" role="alert">{error}</p>}
        {comments && threads.length === 0 && <p class="muted small">No comment yet{canComment ? ": pin one on the file, or write below." : "."}</p>}
        {threads.map((thread) => (
          <ThreadView key={thread.root.id} thread={thread} me={session.user!} active={active === thread.root.id}
            where={where(thread.root)} onOpen={() => open(thread.root.id)} actions={actions} />
        ))}
        {canComment && <NewComment placeholder="Comment on the media…" label="Comment on the media" onSubmit={actions.comment} />}
      </section>
    </div>
  );
}
