#include "http/connection_guard.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <vector>

namespace loupe {
namespace {

// Under attack every refused connection would log a line: one line a second says enough.
constexpr auto log_interval = std::chrono::seconds(1);

}  // namespace

ConnectionGuard::ConnectionGuard(GuardOptions options, Logger& log)
    : options_(options), log_(log), watchdog_([this] { watch(); }) {}

ConnectionGuard::~ConnectionGuard() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    watchdog_.join();
}

void ConnectionGuard::watch_port(int port) {
    std::lock_guard lock(mutex_);
    port_ = port;
}

void ConnectionGuard::connection_opened() {
    {
        std::lock_guard lock(mutex_);
        scan_requested_ = true;
    }
    wake_.notify_all();
}

void ConnectionGuard::head_received(const ConnectionEndpoints& endpoints) {
    std::lock_guard lock(mutex_);
    past_first_head_.insert(endpoints);
}

void ConnectionGuard::connection_closing(const ConnectionEndpoints& endpoints) {
    std::lock_guard lock(mutex_);
    past_first_head_.erase(endpoints);
    ended_.erase(endpoints);
    body_deadlines_.erase(endpoints);
    seen_.erase(endpoints);
}

ConnectionGuard::Verdict ConnectionGuard::verdict(const ConnectionEndpoints& endpoints) {
    std::lock_guard lock(mutex_);
    const auto found = ended_.find(endpoints);
    return found == ended_.end() ? Verdict::none : found->second;
}

ConnectionGuard::BodyRead::BodyRead(ConnectionGuard* guard, ConnectionEndpoints endpoints)
    : guard_(guard), endpoints_(std::move(endpoints)) {
    if (guard_ == nullptr) {
        return;
    }
    bool sooner = false;
    {
        std::lock_guard lock(guard_->mutex_);
        const Clock::time_point at = Clock::now() + guard_->options_.body_timeout;
        guard_->body_deadlines_[endpoints_] = {at, false};
        sooner = at < guard_->planned_wake_;
        guard_->recheck_requested_ = guard_->recheck_requested_ || sooner;
    }
    if (sooner) {
        guard_->wake_.notify_all();
    }
}

ConnectionGuard::BodyRead::~BodyRead() {
    if (guard_ != nullptr) {
        std::lock_guard lock(guard_->mutex_);
        guard_->body_deadlines_.erase(endpoints_);
    }
}

void ConnectionGuard::watch() {
    std::unique_lock lock(mutex_);
    const auto woken = [&] { return stopping_ || scan_requested_ || recheck_requested_; };
    while (!stopping_) {
        if (scan_requested_) {
            scan_requested_ = false;
            rescan(lock);
        }
        recheck_requested_ = false;
        planned_wake_ = enforce_deadlines(Clock::now());
        if (planned_wake_ == Clock::time_point::max()) {
            wake_.wait(lock, woken);
        } else {
            wake_.wait_until(lock, planned_wake_, woken);
        }
    }
}

// Looks at the port's sockets again (unlocked: it only reads) and refuses the newest
// connections of any client over its cap.
void ConnectionGuard::rescan(std::unique_lock<std::mutex>& lock) {
    if (port_ == 0) {
        return;
    }
    const int port = port_;
    lock.unlock();
    std::vector<OpenConnection> open = list_connections(port);
    lock.lock();

    const Clock::time_point now = Clock::now();
    std::map<ConnectionEndpoints, Seen> seen;
    std::map<std::string, std::vector<std::pair<Clock::time_point, ConnectionEndpoints>>> clients;
    for (OpenConnection& connection : open) {
        const auto before = seen_.find(connection.endpoints);
        const Clock::time_point since = before == seen_.end() ? now : before->second.since;
        if (!ended_.contains(connection.endpoints)) {
            clients[connection.endpoints.remote_address].emplace_back(since, connection.endpoints);
        }
        seen.emplace(std::move(connection.endpoints), Seen{connection.fd, since});
    }
    seen_ = std::move(seen);
    if (options_.max_connections_per_client <= 0) {
        return;
    }
    const auto cap = static_cast<std::size_t>(options_.max_connections_per_client);
    for (auto& [client, held] : clients) {
        if (held.size() > cap) {
            std::sort(held.begin(), held.end());  // oldest first: the newest go
            for (std::size_t i = cap; i < held.size(); ++i) {
                end_connection(seen_[held[i].second].fd, held[i].second, Verdict::refused);
            }
        }
    }
}

// Ends the connections past a deadline; returns the next deadline. Under pressure (the
// connections seen hold all but an eighth of the threads, or wait for one) a first head gets
// the shorter deadline: a real client sends its head at once, a slow one loses its thread.
ConnectionGuard::Clock::time_point ConnectionGuard::enforce_deadlines(Clock::time_point now) {
    Clock::time_point next = Clock::time_point::max();
    const auto budget = static_cast<std::size_t>(std::max(options_.connection_budget, 0));
    const bool pressed = budget > 0 && seen_.size() >= budget - budget / 8;
    const auto head_timeout =
        pressed ? std::min(options_.head_timeout, options_.head_timeout_under_pressure)
                : options_.head_timeout;
    for (const auto& [endpoints, socket] : seen_) {
        if (past_first_head_.contains(endpoints) || ended_.contains(endpoints)) {
            continue;
        }
        const Clock::time_point deadline = socket.since + head_timeout;
        if (deadline <= now) {
            end_connection(socket.fd, endpoints, Verdict::timed_out);
        } else {
            next = std::min(next, deadline);
        }
    }
    for (auto& [endpoints, deadline] : body_deadlines_) {
        if (ended_.contains(endpoints)) {
            continue;
        }
        if (deadline.at > now) {
            next = std::min(next, deadline.at);
        } else if (const auto socket = seen_.find(endpoints); socket != seen_.end()) {
            end_connection(socket->second.fd, endpoints, Verdict::timed_out);
        } else if (!deadline.rescanned) {
            deadline.rescanned = true;  // taken up after the last scan: look once more
            scan_requested_ = true;
        }
    }
    return next;
}

// Called locked. The connection cannot close meanwhile (connection_closing() waits for the
// lock, and civetweb closes the socket after it), so a descriptor that still has the
// connection's endpoints is that connection's socket.
void ConnectionGuard::end_connection(int fd, const ConnectionEndpoints& endpoints,
                                     Verdict verdict) {
    if (!is_connection(fd, endpoints)) {
        return;
    }
    ended_[endpoints] = verdict;
    ::shutdown(fd, SHUT_RD);
    log_ended(verdict, endpoints.remote_address);
}

void ConnectionGuard::log_ended(Verdict verdict, const std::string& client) {
    const Clock::time_point now = Clock::now();
    if (now - last_log_ < log_interval) {
        ++unlogged_;
        return;
    }
    log_.warn("http.connection_ended",
              {{"reason", verdict == Verdict::refused ? "too many connections from one client"
                                                      : "request too slow"},
               {"client", client},
               {"also_ended_since_last_line", std::to_string(unlogged_)}});
    last_log_ = now;
    unlogged_ = 0;
}

}  // namespace loupe
