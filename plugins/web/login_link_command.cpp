#include "login_link_command.hpp"

#include <iostream>

#include "loupe/cli/lookups.hpp"

namespace loupe::web {
namespace {

/// Runs `loupe admin <command> --user U [--json]`: `run` gets the user named and the flag.
int run_user_command(Host& host, std::string_view command, const std::vector<std::string>& args,
                     const std::function<int(const User&, bool json)>& run) {
    const std::string usage = "usage: loupe admin " + std::string(command) + " --user U [--json]\n";
    return cli::run_command("loupe admin", usage, args, std::cout, std::cerr, [&] {
        const cli::Options options({.command = command, .required = {"user"}, .flags = {"json"}},
                                   args);
        return run(cli::user_option(host.identity(), options), options.has("json"));
    });
}

}  // namespace

void add_user_commands(Host& host, std::shared_ptr<SessionManager> sessions) {
    host.commands().add(
        "admin user login-link",
        "--user U [--json]: print a one-time sign-in link to the review page",
        [&host, sessions](const std::vector<std::string>& args) {
            return run_user_command(
                host, "user login-link", args, [&](const User& user, bool json) {
                    const std::string url =
                        sessions->login_link_url(sessions->issue_login_link(user.id));
                    const int64_t minutes = sessions->settings().login_link_ms / 60'000;
                    if (json) {
                        std::cout << Json{{"user", user.slug},
                                          {"url", url},
                                          {"expiresAt",
                                           iso_time(now_ms() + sessions->settings().login_link_ms)}}
                                         .dump()
                                  << "\n";
                    } else {
                        std::cout << "Sign-in link for " << user.slug << " (one use, valid "
                                  << minutes << " minutes):\n  " << url << "\n";
                    }
                    return 0;
                });
        });
    host.commands().add(
        "admin user sign-out", "--user U [--json]: end every review-page session of a user",
        [&host, sessions](const std::vector<std::string>& args) {
            return run_user_command(host, "user sign-out", args, [&](const User& user, bool json) {
                const int revoked = sessions->revoke_user(user.id);
                if (json) {
                    std::cout << Json{{"user", user.slug}, {"revoked", revoked}}.dump() << "\n";
                } else {
                    std::cout << "Ended " << revoked << " session(s) of " << user.slug << "\n";
                }
                return 0;
            });
        });
}

}  // namespace loupe::web
