#include "http/client/proxy_environment.hpp"

#include <Poco/Exception.h>
#include <Poco/URI.h>

#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

std::optional<std::string> variable(
    const std::function<std::optional<std::string>(const char*)>& lookup, const char* upper,
    const char* lower) {
    for (const char* name : {lower, upper}) {
        if (auto value = lookup(name); value && !value->empty()) {
            return value;
        }
    }
    return std::nullopt;
}

bool is_loopback(const std::string& host) {
    return host == "localhost" || host.ends_with(".localhost") || host.starts_with("127.") ||
           host == "::1" || host == "[::1]";
}

bool bypassed(const std::string& host, const std::string& no_proxy) {
    for (auto entry : split_trimmed(no_proxy, ',')) {
        if (entry == "*") {
            return true;
        }
        entry = trim_start(entry, ".");
        const std::string suffix = to_lower(entry);
        if (host == suffix || (host.size() > suffix.size() && host.ends_with(suffix) &&
                               host[host.size() - suffix.size() - 1] == '.')) {
            return true;
        }
    }
    return false;
}

}  // namespace

std::optional<ProxyAddress> proxy_for(
    const std::string& scheme, const std::string& host,
    const std::function<std::optional<std::string>(const char*)>& lookup) {
    const std::string name = to_lower(host);
    if (is_loopback(name)) {
        return std::nullopt;
    }
    const auto proxy = scheme == "https" ? variable(lookup, "HTTPS_PROXY", "https_proxy")
                                         : variable(lookup, "HTTP_PROXY", "http_proxy");
    if (!proxy) {
        return std::nullopt;
    }
    if (const auto no_proxy = variable(lookup, "NO_PROXY", "no_proxy");
        no_proxy && bypassed(name, *no_proxy)) {
        return std::nullopt;
    }
    try {
        const Poco::URI uri(proxy->find("://") == std::string::npos ? "http://" + *proxy : *proxy);
        if (uri.getHost().empty()) {
            return std::nullopt;
        }
        ProxyAddress address{uri.getHost(), uri.getPort(), {}, {}};
        const auto& user_info = uri.getUserInfo();
        const auto colon = user_info.find(':');
        address.username = user_info.substr(0, colon);
        if (colon != std::string::npos) {
            address.password = user_info.substr(colon + 1);
        }
        return address;
    } catch (const Poco::SyntaxException&) {
        return std::nullopt;  // a proxy variable that is no URL is ignored, as curl does
    }
}

}  // namespace loupe
