// Comment threads of the build: those pinned on the current screenshot first, then the others.
// Replies, reactions, resolve/reopen, and editing one's own comments.
import { useEffect } from "preact/hooks";
import type { UserRef } from "../api";
import { NewComment, ThreadView, type CommentActions, type Thread } from "../components/comment-threads";

export { threadsOf, type CommentActions, type Thread } from "../components/comment-threads";

interface Props {
  threads: Thread[];
  diffId: string | null;
  diffNames: Map<string, string>;
  me: UserRef;
  activeThread: string | null;
  onOpenThread: (threadId: string | null, diffId: string | null) => void;
  actions: CommentActions;
}

/** Threads of the current screenshot and of the whole build in full; the others in one line. */
export function CommentsPanel({ threads, diffId, diffNames, me, activeThread, onOpenThread, actions }: Props) {
  const here = threads.filter((t) => diffId !== null && t.root.screenshotDiffId === diffId);
  const build = threads.filter((t) => !t.root.screenshotDiffId);
  const elsewhere = threads.filter((t) => t.root.screenshotDiffId && t.root.screenshotDiffId !== diffId);
  useEffect(() => {
    if (activeThread) document.querySelector(`[data-thread-id="${CSS.escape(activeThread)}"]`)?.scrollIntoView({ block: "nearest" });
  }, [activeThread]);
  const full = (thread: Thread) => (
    <ThreadView key={thread.root.id} thread={thread} me={me} active={activeThread === thread.root.id}
      onOpen={() => onOpenThread(thread.root.id, thread.root.screenshotDiffId)} actions={actions} />
  );
  return (
    <section class="comments" aria-label="Comments">
      {here.length === 0 && (
        <p class="muted small hint">No comment on this screenshot. Press <kbd>c</kbd> and click the image to pin one.</p>
      )}
      {here.map(full)}
      {build.length > 0 && <h3 class="panel-subtitle">On the build</h3>}
      {build.map(full)}
      {elsewhere.length > 0 && <h3 class="panel-subtitle">On other screenshots</h3>}
      {elsewhere.map((thread) => (
        <ThreadView key={thread.root.id} thread={thread} me={me} active={false} compact
          where={diffNames.get(thread.root.screenshotDiffId!) ?? "another screenshot"}
          onOpen={() => onOpenThread(thread.root.id, thread.root.screenshotDiffId)} actions={actions} />
      ))}
      <NewComment placeholder="Comment on the build…" label="Comment on the build" onSubmit={actions.comment} />
    </section>
  );
}

