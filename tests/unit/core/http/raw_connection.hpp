#pragma once
// A plain TCP connection for tests that misbehave on purpose: it may come from another
// loopback address (127.0.0.2 is "another client" to the server), send a request a byte at a
// time, and read whatever the server answers before it closes.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace loupe::http_test {

class RawConnection {
public:
    RawConnection(int port, const std::string& source_address = "127.0.0.1") {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0) {
            throw std::runtime_error("socket() failed");
        }
        sockaddr_in source{};
        source.sin_family = AF_INET;
        ::inet_pton(AF_INET, source_address.c_str(), &source.sin_addr);
        sockaddr_in target{};
        target.sin_family = AF_INET;
        target.sin_port = htons(static_cast<uint16_t>(port));
        target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&source), sizeof source) != 0 ||
            ::connect(fd_, reinterpret_cast<sockaddr*>(&target), sizeof target) != 0) {
            ::close(fd_);
            throw std::runtime_error("cannot connect from " + source_address);
        }
    }
    ~RawConnection() { ::close(fd_); }
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    /// False once the server closed or reset the connection.
    bool send(const std::string& bytes) {
        return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
               static_cast<ssize_t>(bytes.size());
    }

    /// Reads until the server closes, or nothing arrives for `quiet`.
    std::string read_until_closed(std::chrono::milliseconds quiet) {
        std::string answer;
        char buffer[4096];
        while (true) {
            pollfd waiting{fd_, POLLIN, 0};
            if (::poll(&waiting, 1, static_cast<int>(quiet.count())) <= 0) {
                return answer;
            }
            const ssize_t count = ::recv(fd_, buffer, sizeof buffer, 0);
            if (count <= 0) {
                closed_ = true;
                return answer;
            }
            answer.append(buffer, static_cast<std::size_t>(count));
        }
    }

    /// True when the server has answered or closed (something is readable now).
    bool server_spoke() const {
        pollfd waiting{fd_, POLLIN, 0};
        return ::poll(&waiting, 1, 0) > 0;
    }
    bool closed() const { return closed_; }

private:
    int fd_ = -1;
    bool closed_ = false;
};

}  // namespace loupe::http_test
