#include "plugin_context.hpp"

#include <stdexcept>

#include "loupe/text/duration.hpp"
#include "loupe/text/strings.hpp"
#include "site/site_headers.hpp"
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

std::string domain_of(Host& host) {
    const std::string domain = to_lower(trim_end(host.config().get_string("domain", ""), "./"));
    if (!domain.empty()) {
        if (auto problem = domain_problem(domain, host.public_url())) {
            throw std::runtime_error(*problem);
        }
    }
    return domain;
}

int64_t positive_setting(const ConfigView& config, const std::string& key, int64_t fallback) {
    const int64_t value = config.get_int(key, fallback);
    if (value <= 0) {
        throw std::runtime_error("plugins.deployments." + key + " must be at least 1, got " +
                                 std::to_string(value));
    }
    return value;
}

/// The sites listener: plugins.deployments.listen_address (default http.listen_address),
/// port (default the API's port + 1, or an ephemeral one when the API's is), public_url
/// (default http://127.0.0.1:<port>), threads and max_connections.
ListenerSpec sites_listener_spec(Host& host) {
    const ConfigView& config = host.config();
    const int64_t api_port = host.global_config().get_int("http.port", 8080);
    ListenerSpec spec;
    spec.name = "sites";
    spec.listen_address = config.get_string("listen_address", "");
    spec.port = static_cast<int>(config.get_int("port", api_port == 0 ? 0 : api_port + 1));
    spec.public_url = config.get_string("public_url", "");
    spec.threads = static_cast<int>(positive_setting(config, "threads", 8));
    spec.max_connections = static_cast<int>(positive_setting(config, "max_connections", 64));
    spec.response_headers = site_response_headers();
    const std::string api_url = host.global_config().get_string("http.public_url", "");
    if (spec.public_url.empty() && !api_url.empty() && spec.port != 0) {
        // Behind a proxy the sites are probably reachable elsewhere: say how to tell.
        spec.public_url = "http://" + host_of_url(api_url) + ":" + std::to_string(spec.port);
        host.log().warn("deployments.sites_url_guessed",
                        {{"url", spec.public_url},
                         {"hint",
                          "set plugins.deployments.public_url to where the sites "
                          "listener is reachable, or plugins.deployments.domain"}});
    }
    if (spec.port < 0 || spec.port > 65535) {
        throw std::runtime_error("plugins.deployments.port must be 0 to 65535, got " +
                                 std::to_string(spec.port));
    }
    return spec;
}

}  // namespace

PluginContext::PluginContext(Host& h)
    : host(h),
      sites_listener(domain_of(h).empty() ? &h.listeners().add(sites_listener_spec(h)) : nullptr),
      urls([listener = sites_listener] { return listener ? listener->public_url() : ""; },
           domain_of(h), h.config().get_string("domain_scheme", "https")),
      link_ttl_s(link_ttl_of(h.config())),
      quota{positive_setting(h.config(), "max_files", DeploymentQuota{}.max_files),
            positive_setting(h.config(), "max_bytes", DeploymentQuota{}.max_bytes)},
      catalog(h.db(), h.identity(), h.config().get_int("cache_ttl_ms", 2000),
              static_cast<std::size_t>(h.config().get_int("cache_max_files", 500000))) {}

const LinkKeys& PluginContext::link_keys() {
    std::call_once(keys_once_, [this] {
        auto session = host.db().session();
        keys_.emplace(load_or_create_secret(*session, "site-links"));
    });
    return *keys_;
}

}  // namespace loupe::deployments
