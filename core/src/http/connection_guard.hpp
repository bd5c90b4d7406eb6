#pragma once
// Keeps slow and greedy clients from taking the server's connections. civetweb gives each
// connection a thread of its own from the moment it is accepted and tells nothing about it
// until its whole head has arrived, so a client that sends its head one byte at a time (or a
// body one byte at a time) holds a thread for as long as it likes. The guard watches the
// listening port's sockets themselves (a scan each time a connection is taken up, and at the
// next deadline) and:
//  - caps the connections one client address holds at once: the newest ones over the cap are
//    answered 503 and closed,
//  - gives the first request head of a connection a deadline from the moment it is seen,
//  - gives each blocking read of a request body a deadline (the body must keep arriving),
//  - under pressure (fewer than an eighth of the connection threads free), shortens the first
//    head's deadline, so that slow clients from many addresses hold threads for about a
//    second each instead of the whole head timeout while others wait in the accept queue.
// A connection it ends has its socket shut for reading: the civetweb thread waiting on it
// wakes at once, answers (503 or 408) and closes it.
// THREADS: every member is safe from any thread; one watchdog thread does the scans.

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "http/socket_lookup.hpp"
#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

struct GuardOptions {
    int max_connections_per_client = 64;  ///< 0 = no cap
    std::chrono::milliseconds head_timeout{10'000};
    std::chrono::milliseconds body_timeout{30'000};  ///< per blocking read of up to 64 KiB
    /// The connection threads (connections served at once); 0 = unknown: no pressure rule.
    int connection_budget = 0;
    /// The first head's deadline while under pressure (when shorter than head_timeout).
    std::chrono::milliseconds head_timeout_under_pressure{1'000};
};

class LOUPE_API ConnectionGuard {
public:
    enum class Verdict { none, refused, timed_out };

    ConnectionGuard(GuardOptions options, Logger& log);
    ~ConnectionGuard();
    ConnectionGuard(const ConnectionGuard&) = delete;
    ConnectionGuard& operator=(const ConnectionGuard&) = delete;

    /// Starts watching the connections of this listening port.
    void watch_port(int port);
    /// A connection was taken up: look at the port's connections again, soon.
    void connection_opened();
    /// The connection's first head arrived: the head deadline no longer applies to it.
    void head_received(const ConnectionEndpoints& endpoints);
    /// The connection is about to be closed: forgets it. Its socket stays open until this
    /// returns, which is what makes ending a connection from the watchdog safe.
    void connection_closing(const ConnectionEndpoints& endpoints);
    /// Whether (and why) the guard ended this connection.
    Verdict verdict(const ConnectionEndpoints& endpoints);

    /// Arms the body deadline of one blocking read; disarmed when the object goes away.
    class BodyRead {
    public:
        BodyRead(ConnectionGuard* guard, ConnectionEndpoints endpoints);
        ~BodyRead();
        BodyRead(const BodyRead&) = delete;
        BodyRead& operator=(const BodyRead&) = delete;

    private:
        ConnectionGuard* guard_;
        ConnectionEndpoints endpoints_;
    };

private:
    using Clock = std::chrono::steady_clock;
    struct Seen {
        int fd = -1;
        Clock::time_point since;
    };
    struct BodyDeadline {
        Clock::time_point at;
        bool rescanned = false;  ///< the socket was missing once: looked for again
    };
    void watch();
    void rescan(std::unique_lock<std::mutex>& lock);
    Clock::time_point enforce_deadlines(Clock::time_point now);
    void end_connection(int fd, const ConnectionEndpoints& endpoints, Verdict verdict);
    void log_ended(Verdict verdict, const std::string& client);

    GuardOptions options_;
    Logger& log_;
    std::mutex mutex_;
    std::condition_variable wake_;
    int port_ = 0;
    bool scan_requested_ = false;
    bool recheck_requested_ = false;
    bool stopping_ = false;
    Clock::time_point planned_wake_ = Clock::time_point::max();
    std::map<ConnectionEndpoints, Seen> seen_;       ///< the port's sockets at the last scan
    std::set<ConnectionEndpoints> past_first_head_;  ///< head deadline no longer applies
    std::map<ConnectionEndpoints, Verdict> ended_;   ///< ended by the guard, until closed
    std::map<ConnectionEndpoints, BodyDeadline> body_deadlines_;
    Clock::time_point last_log_{};
    int unlogged_ = 0;
    std::thread watchdog_;
};

}  // namespace loupe
