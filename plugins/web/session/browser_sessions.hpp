#pragma once
// The web plugin's BrowserSessions service: the sessions other plugins open go through the same
// SessionManager (and the same cookie) as the token and link sign-ins.

#include <memory>

#include "loupe/web/session_service.hpp"
#include "session/session_manager.hpp"

namespace loupe::web {

class BrowserSessionsImpl final : public BrowserSessions {
public:
    explicit BrowserSessionsImpl(std::shared_ptr<SessionManager> sessions)
        : sessions_(std::move(sessions)) {}

    std::string open(soci::session& session, int64_t user_id,
                     const std::string& user_agent) const override {
        const std::string token = sessions_->create(session, user_id, std::nullopt, user_agent);
        return session_cookie(token, sessions_->cookie_options());
    }

private:
    std::shared_ptr<SessionManager> sessions_;
};

}  // namespace loupe::web
