// Media shown together: a before/after pair (same name, same branch or pull request) is one
// entry with both sides; a media without a state is an entry of its own.
import type { Media } from "../api";

export interface MediaGroup {
  key: string;
  name: string;
  before: Media | null;
  after: Media | null;
  /** A media without a before/after state. */
  single: Media | null;
}

const placeOf = (media: Media) => (media.prNumber !== null ? `pr:${media.prNumber}` : `branch:${media.branch ?? ""}`);

/** Groups in the order their first media comes. */
export function groupMedia(list: Media[]): MediaGroup[] {
  const groups = new Map<string, MediaGroup>();
  for (const media of list) {
    const key = media.state ? `${placeOf(media)}\u0000${media.name}` : `id:${media.id}`;
    const group = groups.get(key) ?? { key, name: media.name, before: null, after: null, single: null };
    if (media.state === "before") group.before = media;
    else if (media.state === "after") group.after = media;
    else group.single = media;
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The other side of a pair among `list`, if it is there. */
export function counterpartOf(media: Media, list: Media[]): Media | null {
  if (!media.state) return null;
  const other = media.state === "before" ? "after" : "before";
  return list.find((m) => m.id !== media.id && m.name === media.name && m.state === other && placeOf(m) === placeOf(media)) ?? null;
}
