// GET /me (what `argos whoami` calls): the user of a personal access token or of a browser
// session, with the accounts that credential reaches; a project token names no user.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "support/admin_cli.hpp"
#include "support/http_client.hpp"
#include "support/in_process_server.hpp"
#include "support/server_process.hpp"

using loupe::test::admin;
using loupe::test::error_of;
using loupe::test::http;
using loupe::test::http_get;
using loupe::test::HttpCall;
using loupe::test::InProcessServer;
using loupe::test::member_token;
using loupe::test::TestServer;
using nlohmann::json;

namespace {

std::set<std::string> slugs_of(const json& accounts) {
    std::set<std::string> slugs;
    for (const auto& account : accounts) {
        slugs.insert(account["slug"].get<std::string>());
    }
    return slugs;
}

const json* account_named(const json& accounts, const std::string& slug) {
    for (const auto& account : accounts) {
        if (account["slug"] == slug) {
            return &account;
        }
    }
    return nullptr;
}

/// A GET of `url` with the session cookie a sign-in answer set.
HttpCall with_cookie(const std::string& url, const loupe::test::HttpResult& signed_in) {
    const std::string cookie = signed_in.header("set-cookie");
    HttpCall call{"GET", url, "", "application/json", std::nullopt, {}};
    call.headers["Cookie"] = cookie.substr(0, cookie.find(';'));
    return call;
}

}  // namespace

// One server for every case (blocks, not SUBCASEs, which would start it again per case).
TEST_CASE("GET /me names the caller and the accounts its credential reaches") {
    loupe::test::ServerOptions options;
    options.plugins = {"auth", "builds", "web"};  // web: the browser session
    InProcessServer server(options);
    const std::string carol_pat = member_token(server, "carol", "member");
    const auto me_url = server.base_url() + "/v2/me";

    {  // a personal access token: its user and the accounts of its scope only
        const auto answer = http_get(me_url, carol_pat);
        REQUIRE_MESSAGE(answer.status == 200, answer.body);
        const json me = answer.json();
        CHECK(me["slug"] == "carol");
        CHECK(me["id"].is_string());
        CHECK(me.contains("name"));
        // member_token scopes the token to the team `default` only.
        CHECK(slugs_of(me["accounts"]) == std::set<std::string>{"default"});
        const json* team = account_named(me["accounts"], "default");
        REQUIRE(team != nullptr);
        CHECK((*team)["type"] == "team");
        CHECK((*team)["id"].is_string());
    }

    {  // a browser session made from a token keeps that token's scope
        const auto signed_in = http(HttpCall{
            "POST", server.base_url() + "/_loupe/session", "", "application/json", carol_pat, {}});
        REQUIRE_MESSAGE(signed_in.status == 201, signed_in.body);
        const auto answer = http(with_cookie(me_url, signed_in));
        REQUIRE_MESSAGE(answer.status == 200, answer.body);
        CHECK(answer.json()["slug"] == "carol");
        CHECK(slugs_of(answer.json()["accounts"]) == std::set<std::string>{"default"});
    }

    {  // a session from a sign-in link: every account of its user, the personal one as "user"
        const std::string link = admin(server, {"user", "login-link", "--user", "carol"})["url"];
        const auto at = link.find("#link=");
        REQUIRE(at != std::string::npos);
        const auto signed_in = http(HttpCall{"POST",
                                             server.base_url() + "/_loupe/session/link",
                                             json{{"token", link.substr(at + 6)}}.dump(),
                                             "application/json",
                                             std::nullopt,
                                             {{"Origin", server.base_url()}}});
        REQUIRE_MESSAGE(signed_in.status == 201, signed_in.body);
        const auto answer = http(with_cookie(me_url, signed_in));
        REQUIRE_MESSAGE(answer.status == 200, answer.body);
        const json me = answer.json();
        CHECK(me["slug"] == "carol");
        CHECK(slugs_of(me["accounts"]) == std::set<std::string>{"carol", "default"});
        const json* personal = account_named(me["accounts"], "carol");
        REQUIRE(personal != nullptr);
        CHECK((*personal)["type"] == "user");
        CHECK((*personal)["id"] == me["id"]);
        CHECK((*account_named(me["accounts"], "default"))["type"] == "team");
    }

    {  // the bootstrap admin's token
        const auto answer = http_get(me_url, server.personal_token());
        REQUIRE_MESSAGE(answer.status == 200, answer.body);
        CHECK(answer.json()["slug"] == "admin");
        CHECK_FALSE(answer.json()["accounts"].empty());
    }

    {  // a project token is refused as Argos refuses it
        const auto answer = http_get(me_url, server.project_token());
        CHECK(answer.status == 401);
        CHECK(error_of(answer).find("This endpoint requires a personal access token") !=
              std::string::npos);
    }

    {  // no credential, or an unknown one
        CHECK(error_of(http_get(me_url)) == "Authorization header is missing");
        const auto unknown = http_get(me_url, "arp_" + std::string(36, 'f'));
        CHECK(unknown.status == 401);
        CHECK(error_of(unknown) == "Access token not found");
    }

    {  // a revoked token no longer names its user
        const std::string dave_pat = member_token(server, "dave", "member");
        REQUIRE(http_get(me_url, dave_pat).status == 200);
        admin(server, {"token", "revoke", "--prefix", dave_pat.substr(0, 12)});
        CHECK(http_get(me_url, dave_pat).status == 401);
    }
}
