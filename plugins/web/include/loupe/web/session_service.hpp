#pragma once
// Browser sessions for plugins that sign people in another way (an identity provider): they
// decide who the person is, and the web plugin opens the same session its own sign-in opens
// (an HttpOnly cookie, the CSRF token the page reads from GET /_loupe/session). Look it up at
// install time: `host.services().require<loupe::web::BrowserSessions>()`, and declare
// LOUPE_REQUIRES("web") so that the web plugin is installed first.
// OWNERSHIP: owned by the web plugin for the process lifetime. THREADS: thread-safe.

#include <cstdint>
#include <string>

namespace soci {
class session;
}

namespace loupe::web {

class BrowserSessions {
public:
    static constexpr const char* service_name = "web.BrowserSessions";
    static constexpr int service_version = 1;

    virtual ~BrowserSessions() = default;
    /// Opens a session for `user_id` inside the caller's transaction (so that a sign-in that
    /// fails later leaves no session behind). Returns the value of the Set-Cookie header the
    /// response that ends the sign-in must carry.
    virtual std::string open(soci::session& session, int64_t user_id,
                             const std::string& user_agent) const = 0;
};

}  // namespace loupe::web
