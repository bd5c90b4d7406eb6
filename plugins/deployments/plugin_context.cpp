#include "plugin_context.hpp"

#include <stdexcept>

#include "loupe/text/duration.hpp"
#include "loupe/text/strings.hpp"
#include "store/secrets.hpp"

namespace loupe::deployments {
namespace {

int64_t link_ttl_of(const ConfigView& config) {
    const std::string text = config.get_string("link_ttl", "7d");
    const auto duration = parse_duration(text);
    if (!duration) {
        throw std::runtime_error(
            "plugins.deployments.link_ttl: expected a duration such as 7d, "
            "12h or 45m, got \"" +
            text + "\"");
    }
    return std::chrono::duration_cast<std::chrono::seconds>(*duration).count();
}

std::string domain_of(const ConfigView& config) {
    std::string domain = config.get_string("domain", "");
    while (!domain.empty() && (domain.back() == '.' || domain.back() == '/')) {
        domain.pop_back();
    }
    return to_lower(domain);
}

}  // namespace

PluginContext::PluginContext(Host& h)
    : host(h),
      urls([&h] { return h.public_url(); }, domain_of(h.config()),
           h.config().get_string("domain_scheme", "https")),
      link_ttl_s(link_ttl_of(h.config())),
      catalog(h.db(), h.identity(), h.config().get_int("cache_ttl_ms", 2000),
              static_cast<std::size_t>(h.config().get_int("cache_max_files", 500000))),
      access({signed_link_rule([this]() -> const AccessTokens& { return tokens(); }, urls)}) {}

const AccessTokens& PluginContext::tokens() {
    std::call_once(tokens_once_, [this] {
        auto session = host.db().session();
        tokens_.emplace(load_or_create_secret(*session, "site-access"));
    });
    return *tokens_;
}

std::string PluginContext::site_url(const std::string& name, bool is_public) {
    std::string url = urls.root(name);
    if (!is_public) {
        const int64_t expires = now_ms() / 1000 + link_ttl_s;
        url += std::string("?") + access_parameter + "=" + tokens().issue(name, expires);
    }
    return url;
}

}  // namespace loupe::deployments
