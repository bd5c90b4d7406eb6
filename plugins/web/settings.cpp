#include "settings.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <sstream>

#include "loupe/plugin.hpp"

namespace loupe::web {
namespace {

/// `<folder of this plugin's .so>/web-assets`, where the build puts the front end.
std::string default_assets_dir() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&default_assets_dir), &info) == 0 ||
        info.dli_fname == nullptr) {
        return "web-assets";
    }
    return (std::filesystem::path(info.dli_fname).parent_path() / "web-assets").string();
}

/// "auth, builds web" → {"auth", "builds", "web"}.
std::vector<std::string> split_names(std::string text) {
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream words(text);
    return {std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
}

}  // namespace

WebSettings read_settings(Host& host) {
    const auto& config = host.config();
    WebSettings settings;
    settings.session_ms =
        std::max<int64_t>(1, config.get_int("session_days", 30)) * 24 * 3600 * 1000;
    settings.login_link_ms =
        std::max<int64_t>(1, config.get_int("login_link_minutes", 15)) * 60 * 1000;
    settings.assets_dir = config.get_string("assets_dir", "");
    settings.trace_viewer_url = config.get_string("trace_viewer_url", settings.trace_viewer_url);
    if (settings.assets_dir.empty()) {
        settings.assets_dir = default_assets_dir();
    }
    settings.thumbnail_width =
        static_cast<int>(std::clamp<int64_t>(config.get_int("thumbnail_width", 240), 16, 2048));
    settings.thumbnail_max_height = settings.thumbnail_width * 2;
    settings.enabled_plugins =
        split_names(host.global_config().get_string("plugins.enabled", default_enabled_plugins));
    return settings;
}

bool is_https(const std::string& public_url) {
    return public_url.starts_with("https://");
}

}  // namespace loupe::web
