#pragma once

#include "loupe/host.hpp"
#include "loupe/http/listeners.hpp"
#include "media_json.hpp"

namespace loupe::media {

/// On the media listener (an origin of its own, without sessions): GET /files/{fileToken}
/// serves a version's bytes, GET /m/{shareToken} a public media's share page (a team media's
/// redirects to its page in the review page, behind sign-in). The tokens are
/// unguessable; the answers can run nothing (nosniff, a sandboxing Content-Security-Policy).
/// What every answer of the media listener carries (ListenerSpec::response_headers): nothing it
/// serves may run, be sniffed into another type, or be framed by another site.
std::vector<std::pair<std::string, std::string>> media_listener_headers();

void add_file_routes(Host& host, Listener& listener, const std::function<MediaUrls()>& urls);

}  // namespace loupe::media
