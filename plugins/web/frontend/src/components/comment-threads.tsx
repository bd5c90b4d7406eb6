// Comment threads wherever comments live (a build's panel, a test's page): a thread's comments
// with their reactions, editing one's own, replies, resolve and reopen, and the box for a new
// comment.
import { useState } from "preact/hooks";
import type { Comment, commentsAt, UserRef } from "../api";
import { relativeTime } from "../format";

export interface Thread {
  root: Comment;
  replies: Comment[];
  label: string;
}

const reactionChoices = ["👍", "🎉", "❤️", "👀"];

/** Threads in order of creation; pinned ones are numbered 1, 2, ... as their pins read. */
export function threadsOf(comments: Comment[]): Thread[] {
  let pinned = 0;
  return comments
    .filter((c) => !c.threadId)
    .map((root) => ({
      root,
      replies: comments.filter((c) => c.threadId === root.id),
      label: root.anchor ? String(++pinned) : "#",
    }));
}

/** The thread actions over a place's comment endpoints, each followed by `refresh`. */
export function commentActions(endpoints: ReturnType<typeof commentsAt>, refresh: () => Promise<unknown>): CommentActions {
  const act = async (work: () => Promise<unknown>) => {
    await work();
    await refresh();
  };
  return {
    reply: (threadId, text) => act(() => endpoints.create({ body: text, threadId })),
    edit: (id, text) => act(() => endpoints.edit(id, text)),
    resolve: (id, resolved) => act(() => endpoints.resolve(id, resolved)),
    react: (id, emoji, add) => act(() => endpoints.react(id, emoji, add)),
    comment: (text) => act(() => endpoints.create({ body: text })),
  };
}

export interface CommentActions {
  reply: (threadId: string, text: string) => Promise<void>;
  edit: (commentId: string, text: string) => Promise<void>;
  resolve: (threadId: string, resolved: boolean) => Promise<void>;
  react: (commentId: string, emoji: string, add: boolean) => Promise<void>;
  comment: (text: string) => Promise<void>;
}

export function ThreadView({ thread, me, active, compact = false, where, onOpen, actions }: {
  thread: Thread;
  me: UserRef;
  active: boolean;
  compact?: boolean;
  where?: string;
  onOpen: () => void;
  actions: CommentActions;
}) {
  const resolved = !!thread.root.resolvedAt;
  const [open, setOpen] = useState(!resolved);
  const count = thread.replies.length + 1;
  return (
    <article class={`thread${active ? " thread-active" : ""}${resolved ? " thread-resolved" : ""}`} data-thread-id={thread.root.id}>
      <header class="thread-head">
        <button type="button" class="thread-label" onClick={onOpen} aria-label={`Show thread ${thread.label}`}>
          {thread.label}
        </button>
        <span class="muted small ellipsis">
          {compact ? `${where} · ${thread.root.text}` : `${count} comment${count > 1 ? "s" : ""}${where ? ` · ${where}` : ""}${resolved ? " · resolved" : ""}`}
        </span>
        <span class="toolbar-gap" />
        {compact ? (
          <button type="button" class="link-button small" onClick={onOpen}>Show</button>
        ) : (
          <>
            <button type="button" class="link-button small" onClick={() => actions.resolve(thread.root.id, !resolved)}>
              {resolved ? "Reopen" : "Resolve"}
            </button>
            {resolved && (
              <button type="button" class="link-button small" aria-expanded={open} onClick={() => setOpen(!open)}>
                {open ? "Hide" : "Show"}
              </button>
            )}
          </>
        )}
      </header>
      {!compact && (open || !resolved) && (
        <>
          {[thread.root, ...thread.replies].map((comment) => (
            <CommentView key={comment.id} comment={comment} me={me} actions={actions} />
          ))}
          <NewComment placeholder="Reply…" label="Reply" onSubmit={(text) => actions.reply(thread.root.id, text)} small />
        </>
      )}
    </article>
  );
}

function CommentView({ comment, me, actions }: { comment: Comment; me: UserRef; actions: CommentActions }) {
  const [editing, setEditing] = useState(false);
  const mine = comment.author?.id === me.id;
  return (
    <div class="comment" data-comment-id={comment.id}>
      <div class="comment-meta">
        <strong>{comment.author?.name ?? comment.author?.slug ?? "someone"}</strong>
        <span class="muted small">{relativeTime(comment.createdAt)}{comment.editedAt ? " · edited" : ""}{comment.pending ? " · draft" : ""}</span>
        {mine && !editing && (
          <button type="button" class="link-button small" onClick={() => setEditing(true)}>Edit</button>
        )}
      </div>
      {editing ? (
        <NewComment initial={comment.text} label="Edit comment" placeholder="" small onCancel={() => setEditing(false)}
          onSubmit={async (text) => {
            await actions.edit(comment.id, text);
            setEditing(false);
          }} />
      ) : (
        <p class="comment-text">{comment.text}</p>
      )}
      <div class="reactions">
        {comment.reactions.map((reaction) => {
          const mineToo = reaction.users.some((u) => u.id === me.id);
          return (
            <button key={reaction.emoji} type="button" class={`reaction${mineToo ? " reaction-mine" : ""}`} aria-pressed={mineToo}
              title={reaction.users.map((u) => u.name ?? u.slug).join(", ")}
              onClick={() => actions.react(comment.id, reaction.emoji, !mineToo)}>
              {reaction.emoji} {reaction.count}
            </button>
          );
        })}
        {reactionChoices.filter((e) => !comment.reactions.some((r) => r.emoji === e)).map((emoji) => (
          <button key={emoji} type="button" class="reaction reaction-add" aria-label={`React with ${emoji}`} onClick={() => actions.react(comment.id, emoji, true)}>
            {emoji}
          </button>
        ))}
      </div>
    </div>
  );
}

export function NewComment({ placeholder, label, onSubmit, onCancel, initial = "", small = false }: {
  placeholder: string;
  label: string;
  onSubmit: (text: string) => Promise<void>;
  onCancel?: () => void;
  initial?: string;
  small?: boolean;
}) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(text.trim());
      setText("");
    } catch (e) {
      setError((e as Error).message);
    }
    setBusy(false);
  };
  return (
    <form class={`new-comment${small ? " new-comment-small" : ""}`} onSubmit={submit}>
      <textarea aria-label={label} placeholder={placeholder} value={text} rows={small ? 1 : 2}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) (e.currentTarget.form as HTMLFormElement).requestSubmit();
          if (e.key === "Escape" && onCancel) onCancel();
        }} />
      {error && <p class="form-error">{error}</p>}
      {(text.trim() || onCancel) && (
        <div class="draft-actions">
          {onCancel && <button type="button" class="button button-small" onClick={onCancel}>Cancel</button>}
          <button type="submit" class="button button-small button-primary" disabled={busy || !text.trim()}>{label}</button>
        </div>
      )}
    </form>
  );
}
