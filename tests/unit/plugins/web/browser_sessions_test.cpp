// The web plugin's BrowserSessions service as another plugin sees it (fixture plugin
// "session_probe"): the session it opens is the one the page reads, and a sign-in whose
// transaction fails leaves none behind.
#include <doctest/doctest.h>

#include <regex>

#include "support/build_paths.hpp"
#include "support/http_client.hpp"
#include "support/server_process.hpp"

using loupe::test::http;
using loupe::test::HttpCall;
using loupe::test::ServerOptions;
using loupe::test::ServerProcess;

namespace {

ServerProcess& probed_server() {
    static ServerProcess instance([] {
        ServerOptions options{{"auth", "builds", "web", "session_probe"}, {}, {}};
        options.settings["plugins.path"] =
            std::string(LOUPE_TEST_PLUGIN_DIR) + ":" + LOUPE_TEST_FIXTURE_PLUGIN_DIR;
        return options;
    }());
    return instance;
}

std::string token_in_cookie(const std::string& set_cookie) {
    static const std::regex cookie("^loupe_session=([0-9a-f]{64});");
    std::smatch match;
    REQUIRE_MESSAGE(std::regex_search(set_cookie, match, cookie), set_cookie);
    return match[1];
}

nlohmann::json session_with(const std::string& token) {
    const auto result = http(HttpCall{"GET",
                                      probed_server().base_url() + "/_loupe/session",
                                      "",
                                      "",
                                      std::nullopt,
                                      {{"Cookie", "loupe_session=" + token}}});
    REQUIRE_MESSAGE(result.status == 200, result.body);
    return result.json();
}

loupe::test::HttpResult probe(const std::string& path) {
    return http(HttpCall{"POST",
                         probed_server().base_url() + "/v2/probe" + path,
                         "",
                         "application/json",
                         std::nullopt,
                         {}});
}

}  // namespace

TEST_CASE("web BrowserSessions service: another plugin signs a browser in") {
    SUBCASE("the cookie it returns opens the page's session for that user") {
        const auto opened = probe("/session/admin");
        REQUIRE_MESSAGE(opened.status == 201, opened.body);
        const std::string set_cookie = opened.header("set-cookie");
        CHECK(set_cookie.find("HttpOnly") != std::string::npos);
        CHECK(set_cookie.find("SameSite=Lax") != std::string::npos);
        const auto session = session_with(token_in_cookie(set_cookie));
        CHECK(session.at("user").at("slug") == "admin");
        CHECK(session.at("csrfToken").is_string());
    }
    SUBCASE("a failed sign-in transaction leaves no session") {
        const auto failed = probe("/session/admin/rollback");
        REQUIRE_MESSAGE(failed.status == 409, failed.body);
        const std::string cookie = failed.json().at("cookie");
        CHECK(session_with(token_in_cookie(cookie)).at("user").is_null());
    }
    SUBCASE("an unknown user gets no session") {
        CHECK(probe("/session/nobody").status == 404);
    }
}
