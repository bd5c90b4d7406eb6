#pragma once
// The web plugin's configuration keys (plugins.web.*), read once at install.

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/host.hpp"

namespace loupe::web {

struct WebSettings {
    int64_t session_ms = 30LL * 24 * 3600 * 1000;  ///< session_days
    int64_t login_link_ms = 15LL * 60 * 1000;      ///< login_link_minutes
    std::string assets_dir;                        ///< the built front end
    int thumbnail_width = 240;                     ///< pixels (twice the list's CSS width)
    int thumbnail_max_height = 480;                ///< taller pages keep their top
    std::vector<std::string> enabled_plugins;      ///< plugins.enabled, for the page's menus
    /// Where the page opens a Playwright trace (`?trace=<its signed URL>` is appended): the
    /// public viewer, which reads the trace in the browser, or one the operator hosts.
    std::string trace_viewer_url = "https://trace.playwright.dev/";
};

WebSettings read_settings(Host& host);

/// True when `public_url` is https: the session cookie is then marked Secure.
bool is_https(const std::string& public_url);

}  // namespace loupe::web
