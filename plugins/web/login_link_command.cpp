#include "login_link_command.hpp"

#include <iostream>

namespace loupe::web {
namespace {

struct UserArguments {
    std::string user;
    bool json = false;
};

/// Parses `--user U [--json]`; prints the usage and returns nullopt when they are wrong.
std::optional<UserArguments> parse(const std::vector<std::string>& args, const char* usage) {
    UserArguments parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            parsed.json = true;
        } else if (args[i] == "--user" && i + 1 < args.size()) {
            parsed.user = args[++i];
        } else {
            std::cerr << "loupe admin: unexpected argument \"" << args[i] << "\"\n";
            parsed.user.clear();
            break;
        }
    }
    if (parsed.user.empty()) {
        std::cerr << "usage: loupe admin " << usage << "\n";
        return std::nullopt;
    }
    return parsed;
}

std::optional<User> find_user(Host& host, const std::string& slug) {
    auto user = host.identity().find_user(slug);
    if (!user) {
        std::cerr << "loupe admin: no user \"" << slug << "\"\n";
    }
    return user;
}

}  // namespace

void add_user_commands(Host& host, std::shared_ptr<SessionManager> sessions) {
    host.commands().add(
        "admin user login-link",
        "--user U [--json]: print a one-time sign-in link to the review page",
        [&host, sessions](const std::vector<std::string>& args) {
            const auto parsed = parse(args, "user login-link --user U [--json]");
            if (!parsed) {
                return 2;
            }
            const auto user = find_user(host, parsed->user);
            if (!user) {
                return 1;
            }
            const std::string url = sessions->login_link_url(sessions->issue_login_link(user->id));
            const int64_t minutes = sessions->settings().login_link_ms / 60'000;
            if (parsed->json) {
                std::cout << Json{{"user", user->slug},
                                  {"url", url},
                                  {"expiresAt",
                                   iso_time(now_ms() + sessions->settings().login_link_ms)}}
                                 .dump()
                          << "\n";
            } else {
                std::cout << "Sign-in link for " << user->slug << " (one use, valid " << minutes
                          << " minutes):\n  " << url << "\n";
            }
            return 0;
        });
    host.commands().add(
        "admin user sign-out", "--user U [--json]: end every review-page session of a user",
        [&host, sessions](const std::vector<std::string>& args) {
            const auto parsed = parse(args, "user sign-out --user U [--json]");
            if (!parsed) {
                return 2;
            }
            const auto user = find_user(host, parsed->user);
            if (!user) {
                return 1;
            }
            const int revoked = sessions->revoke_user(user->id);
            if (parsed->json) {
                std::cout << Json{{"user", user->slug}, {"revoked", revoked}}.dump() << "\n";
            } else {
                std::cout << "Ended " << revoked << " session(s) of " << user->slug << "\n";
            }
            return 0;
        });
}

}  // namespace loupe::web
