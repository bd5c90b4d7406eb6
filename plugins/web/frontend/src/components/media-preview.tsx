// A media file as the page shows it: the picture, or the video with its controls. The bytes come
// from the media listener (another origin, which holds no session of this page).
import type { Media, MediaVersion } from "../api";

export const isVideo = (contentType: string) => contentType.startsWith("video/");

export function MediaPreview({ file, name, controls = true }: { file: Pick<Media | MediaVersion, "fileUrl" | "contentType">; name: string; controls?: boolean }) {
  if (isVideo(file.contentType)) {
    return <video class="media-file" src={file.fileUrl} controls={controls} muted={!controls} preload="metadata" aria-label={name} />;
  }
  return <img class="media-file" src={file.fileUrl} alt={name} loading="lazy" />;
}
