#include "http/socket_lookup.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <memory>
#include <optional>

namespace loupe {
namespace {

int port_of(const sockaddr_storage& address) {
    if (address.ss_family == AF_INET) {
        return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
    }
    if (address.ss_family == AF_INET6) {
        return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    }
    return -1;
}

std::string numeric_address(const sockaddr_storage& address) {
    char text[INET6_ADDRSTRLEN] = "";
    if (address.ss_family == AF_INET) {
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text,
                    sizeof text);
    } else if (address.ss_family == AF_INET6) {
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text,
                    sizeof text);
    }
    return text;
}

/// The endpoints of `fd` when it is a connected TCP socket, else nullopt.
std::optional<ConnectionEndpoints> endpoints_of(int fd) {
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode)) {
        return std::nullopt;
    }
    sockaddr_storage local{};
    socklen_t length = sizeof local;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) != 0) {
        return std::nullopt;
    }
    sockaddr_storage peer{};
    length = sizeof peer;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length) != 0 || port_of(peer) < 0) {
        return std::nullopt;
    }
    return ConnectionEndpoints{numeric_address(peer), port_of(peer), port_of(local)};
}

/// Calls `visit(fd)` for each open descriptor of the process.
template <class Visit>
void for_each_descriptor(const Visit& visit) {
    const auto close_folder = [](DIR* open) { ::closedir(open); };
    const std::unique_ptr<DIR, decltype(close_folder)> folder(::opendir("/proc/self/fd"),
                                                              close_folder);
    if (!folder) {
        return;
    }
    const int own = ::dirfd(folder.get());
    while (const dirent* entry = ::readdir(folder.get())) {
        char* end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end != entry->d_name && *end == '\0' && fd != own) {
            visit(static_cast<int>(fd));
        }
    }
}

bool is_listening_on(int fd, int local_port) {
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode)) {
        return false;
    }
    int listening = 0;
    socklen_t size = sizeof listening;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) != 0 || listening == 0) {
        return false;
    }
    sockaddr_storage local{};
    socklen_t length = sizeof local;
    return ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0 &&
           port_of(local) == local_port;
}

}  // namespace

std::vector<OpenConnection> list_connections(int local_port) {
    std::vector<OpenConnection> found;
    for_each_descriptor([&](int fd) {
        auto endpoints = endpoints_of(fd);
        if (endpoints && endpoints->local_port == local_port) {
            found.push_back({fd, std::move(*endpoints)});
        }
    });
    return found;
}

std::vector<int> listening_sockets(int local_port) {
    std::vector<int> found;
    for_each_descriptor([&](int fd) {
        if (is_listening_on(fd, local_port)) {
            found.push_back(fd);
        }
    });
    return found;
}

std::string normalized_address(const std::string& address) {
    sockaddr_storage parsed{};
    if (::inet_pton(AF_INET, address.c_str(), &reinterpret_cast<sockaddr_in&>(parsed).sin_addr) ==
        1) {
        parsed.ss_family = AF_INET;
    } else if (::inet_pton(AF_INET6, address.c_str(),
                           &reinterpret_cast<sockaddr_in6&>(parsed).sin6_addr) == 1) {
        parsed.ss_family = AF_INET6;
    } else {
        return address;
    }
    return numeric_address(parsed);
}

bool is_connection(int fd, const ConnectionEndpoints& endpoints) {
    const auto actual = endpoints_of(fd);
    return actual && *actual == endpoints;
}

}  // namespace loupe
