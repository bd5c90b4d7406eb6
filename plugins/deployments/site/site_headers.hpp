#pragma once
// What every answer of a site carries, whatever its status (the sites listener's own 404s
// included). The sandbox gives the page an opaque origin of its own: its scripts, forms and
// pop-ups work, but it holds no cookie or storage, and its requests are cross-origin to every
// server, this one included (so the review page's API answers them nothing, even where the
// sites share its host name). Because of that opaque origin, the page's own module scripts and
// fetch() calls are cross-origin requests: Access-Control-Allow-Origin lets them read the
// site's files, which carry no credential (a private link's key is in the URL). No Referer
// leaves a site: a link's key must not reach the sites it links to.

#include <string>
#include <utility>
#include <vector>

namespace loupe::deployments {

inline constexpr const char* site_sandbox = "sandbox allow-scripts allow-forms allow-popups";

inline std::vector<std::pair<std::string, std::string>> site_response_headers() {
    return {{"Content-Security-Policy", site_sandbox},
            {"X-Content-Type-Options", "nosniff"},
            {"Referrer-Policy", "no-referrer"},
            {"Access-Control-Allow-Origin", "*"}};
}

}  // namespace loupe::deployments
