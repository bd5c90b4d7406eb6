#include "routes/file_routes.hpp"

#include "content/media_content.hpp"
#include "loupe/http/blob_response.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/text/html.hpp"

namespace loupe::media {

std::vector<std::pair<std::string, std::string>> media_listener_headers() {
    return {{"X-Content-Type-Options", "nosniff"},
            {"Content-Security-Policy",
             "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; "
             "sandbox"},
            {"Referrer-Policy", "no-referrer"},
            {"Cross-Origin-Resource-Policy", "cross-origin"}};
}

void add_file_routes(Host& host, Listener& listener, const std::function<MediaUrls()>& urls) {
    listener.routes().add(Method::get, "/files/{fileToken}", AuthRequirement::none,
                          RouteAccess::public_route("the unguessable file token is the credential"),
                          [&host](Request& request) {
                              std::optional<VersionRow> version;
                              {
                                  auto session = host.db().session();
                                  version =
                                      find_uploaded_version(*session, request.param("fileToken"));
                              }
                              if (!version) {
                                  throw HttpError::not_found("File not found");
                              }
                              // The bytes of a token never change (another upload is another
                              // version); a range lets a browser seek in a video.
                              Response response = blob_response(
                                  request, host.blobs(),
                                  BlobServing{version->blob_key, version->content_type,
                                              version->size_bytes, "\"" + version->blob_key + "\"",
                                              "public, max-age=31536000, immutable"});
                              return response;
                          });
    listener.routes().add(
        Method::get, "/m/{shareToken}", AuthRequirement::none,
        RouteAccess::public_route("the unguessable share token is the credential, for public "
                                  "media only"),
        [&host, urls](Request& request) {
            std::optional<MediaRow> media;
            std::vector<VersionRow> versions;
            {
                auto session = host.db().session();
                media = find_media_by_share_token(*session, request.param("shareToken"));
                if (media) {
                    versions = media_versions(*session, media->id);
                }
            }
            if (!media || versions.empty() || !described_version(versions).uploaded_at) {
                throw HttpError::not_found("Media not found");
            }
            if (media->visibility != "public") {
                // A team media is seen in the review page, behind sign-in and `view`: the link
                // leads there (it tells nothing the link's holder could not follow to).
                const auto project = host.identity().find_project(media->project_id);
                if (!project) {
                    throw HttpError::not_found("Media not found");
                }
                Response redirect = Response::text("", "text/plain", 302);
                redirect.headers.emplace_back("Location", urls().team_page_url(*media, *project));
                return redirect;
            }
            const auto& version = described_version(versions);
            const auto file = html_escape(urls().file_url(version));
            const auto name = html_escape(media->name);
            const std::string embed = is_video_type(version.content_type)
                                          ? "<video controls src=\"" + file + "\"></video>"
                                          : "<img src=\"" + file + "\" alt=\"" + name + "\">";
            std::string page =
                "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta "
                "name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
                name +
                "</title><style>body{margin:0;font:14px system-ui,sans-serif;background:#f4f4f5;"
                "color:#18181b}main{max-width:1100px;margin:0 auto;padding:24px}img,video{"
                "max-width:100%;border:1px solid #d4d4d8;background:#fff}p{color:#52525b}"
                "</style></head><body><main><h1>" +
                name + (media->state ? " (" + *media->state + ")" : "") + "</h1>" +
                (media->description ? "<p>" + html_escape(*media->description) + "</p>" : "") +
                embed + "<p>Version " + std::to_string(version.number) +
                "</p></main></body></html>";
            return Response::text(std::move(page), "text/html; charset=utf-8");
        });
}

}  // namespace loupe::media
