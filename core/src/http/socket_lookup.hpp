#pragma once
// The server's open client connections, found among the process's descriptors. civetweb owns
// its connections' sockets and tells nothing about one until its whole head has arrived; the
// ConnectionGuard looks at the sockets themselves to see who holds how many connections, and
// to end one (shutdown() wakes the civetweb thread blocked reading it).

#include <compare>
#include <string>
#include <vector>

namespace loupe {

struct ConnectionEndpoints {
    std::string remote_address;  ///< numeric IPv4 or IPv6, as civetweb prints it
    int remote_port = 0;
    int local_port = 0;
    auto operator<=>(const ConnectionEndpoints&) const = default;
};

struct OpenConnection {
    int fd = -1;
    ConnectionEndpoints endpoints;
};

/// Every connected TCP socket of the process whose local port is `local_port` (the listening
/// socket itself has no peer and is left out). Scans /proc/self/fd.
std::vector<OpenConnection> list_connections(int local_port);

/// The process's listening TCP sockets on `local_port`. Scans /proc/self/fd.
std::vector<int> listening_sockets(int local_port);

/// `address` (numeric IPv4 or IPv6) written the way list_connections() writes it.
std::string normalized_address(const std::string& address);

/// True when `fd` is still the TCP socket connected to `endpoints`.
bool is_connection(int fd, const ConnectionEndpoints& endpoints);

}  // namespace loupe
