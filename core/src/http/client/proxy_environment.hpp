#pragma once
// The proxy the environment asks outgoing HTTP to use: HTTPS_PROXY for https URLs, HTTP_PROXY
// for http ones (either in lower case too), except for the hosts NO_PROXY lists (a name, a
// ".suffix" or "suffix" matching that domain and its subdomains, or "*") and loopback hosts,
// which are always reached directly.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "loupe/export.hpp"

namespace loupe {

struct ProxyAddress {
    std::string host;
    uint16_t port = 0;
    std::string username;
    std::string password;
};

/// `lookup` reads an environment variable (std::getenv in the server, a map in tests).
LOUPE_API std::optional<ProxyAddress> proxy_for(
    const std::string& scheme, const std::string& host,
    const std::function<std::optional<std::string>(const char*)>& lookup);

}  // namespace loupe
