// End to end: the real `loupe serve` with the auth plugin, driven over HTTP.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>

#include "support/admin_cli.hpp"
#include "support/http_client.hpp"
#include "support/in_process_server.hpp"
#include "support/server_process.hpp"

using loupe::test::admin;
using loupe::test::error_of;
using loupe::test::find_token;
using loupe::test::first_detail;
using loupe::test::http;
using loupe::test::http_get;
using loupe::test::http_json;
using loupe::test::HttpCall;
using loupe::test::InProcessServer;
using loupe::test::member_token;
using loupe::test::ServerProcess;
using nlohmann::json;

TEST_CASE("first start bootstraps credentials that the API accepts") {
    ServerProcess server;
    REQUIRE(server.project_token().size() == 40);
    CHECK(server.project_token().rfind("argos_", 0) == 0);
    REQUIRE(server.personal_token().size() == 40);
    CHECK(server.personal_token().rfind("arp_", 0) == 0);
    struct stat info {};
    REQUIRE(::stat((server.data_dir() + "/bootstrap.json").c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    CHECK(server.output().find(server.project_token()) != std::string::npos);

    for (const char* prefix : {"", "/v2"}) {
        auto result = http_get(server.base_url() + prefix + "/project", server.project_token());
        REQUIRE(result.status == 200);
        auto project = result.json();
        CHECK(project["name"] == "default");
        CHECK(project["account"]["slug"] == "default");
        CHECK(project["defaultBaseBranch"] == "main");
        CHECK(project["hasRemoteContentAccess"] == false);
        CHECK(project["id"].is_string());
        CHECK(project["account"]["id"].is_string());
    }
}

TEST_CASE("a second start on the same database does not bootstrap again") {
    ServerProcess server;
    std::string out;
    server.run_cli({"admin", "user", "list", "--json"}, out);
    CHECK(out.find("\"admin\"") != std::string::npos);
}

TEST_CASE("health, readiness and unknown routes answer JSON") {
    InProcessServer server;
    CHECK(http_get(server.base_url() + "/healthz").status == 200);
    auto ready = http_get(server.base_url() + "/readyz");
    CHECK(ready.status == 200);
    CHECK(ready.json()["database"] == "ok");
    auto missing = http_get(server.base_url() + "/v2/nothing/here");
    CHECK(missing.status == 404);
    CHECK(missing.header("content-type").find("application/json") != std::string::npos);
    auto wrong_method = http_json("DELETE", server.base_url() + "/project", json::object());
    CHECK(wrong_method.status == 405);
}

TEST_CASE("authorization header refusals follow Argos") {
    InProcessServer server;
    const auto url = server.base_url() + "/v2/project";
    auto call = [&](std::optional<std::string> header) {
        HttpCall request{"GET", url, "", "application/json", std::nullopt, {}};
        if (header) {
            request.headers["Authorization"] = *header;
        }
        return http(request);
    };
    auto missing = call(std::nullopt);
    CHECK(missing.status == 401);
    CHECK(error_of(missing) == "Authorization header is missing");
    CHECK_FALSE(missing.header("www-authenticate").empty());

    auto bare = call(std::string("Bearer"));
    CHECK(bare.status == 400);
    CHECK(error_of(bare) == "Invalid authorization header");

    auto scheme = call("Basic " + server.project_token());
    CHECK(scheme.status == 400);
    CHECK(error_of(scheme) ==
          "Invalid authorization header scheme \"Basic\", please use \"Bearer\"");

    auto lower = call("bearer " + server.project_token());
    CHECK(lower.status == 400);

    auto two = call(std::string("Bearer a b"));
    CHECK(two.status == 400);
    CHECK(error_of(two) == "Invalid authorization header, no valid Bearer found");

    const std::string unknown = "argos_" + std::string(34, 'z');
    auto not_found = call("Bearer " + unknown);
    CHECK(not_found.status == 401);
    CHECK(error_of(not_found) ==
          "Project not found in Argos. If the issue persists, verify your "
          "token. (token: \"" +
              unknown + "\").");

    auto personal = call("Bearer " + server.personal_token());
    CHECK(personal.status == 401);
    CHECK(error_of(personal) ==
          "This endpoint requires a project token. See https://argos-ci.com/docs for details.");
}

TEST_CASE("GET /projects/{owner}/{project} checks access as Argos does") {
    InProcessServer server;
    const auto base = server.base_url() + "/v2/projects/";
    CHECK(http_get(base + "default/default", server.project_token()).status == 200);
    CHECK(http_get(base + "default/default", server.personal_token()).status == 200);

    auto missing_pat = http_get(base + "default/nope", server.personal_token());
    CHECK(missing_pat.status == 404);
    CHECK(error_of(missing_pat) == "Not found");

    auto missing_pt = http_get(base + "default/nope", server.project_token());
    CHECK(missing_pt.status == 401);
    CHECK(error_of(missing_pt) == "Unauthorized");

    auto other_owner = http_get(base + "someone-else/default", server.personal_token());
    CHECK(other_owner.status == 401);
    CHECK(error_of(other_owner) == "Unauthorized");

    auto other = admin(server, {"project", "create", "--account", "default", "--name", "web"});
    auto other_token = find_token(other, "argos_");
    REQUIRE(other_token.size() == 40);
    auto foreign = http_get(base + "default/default", other_token);
    CHECK(foreign.status == 401);
    CHECK(http_get(base + "default/web", other_token).status == 200);
}

TEST_CASE("POST /projects validates, authorizes and creates") {
    InProcessServer server;
    const auto url = server.base_url() + "/v2/projects";
    const auto& pat = server.personal_token();

    auto no_body = http(HttpCall{"POST", url, "", "application/json", pat, {}});
    CHECK(no_body.status == 400);
    CHECK(error_of(no_body) == "Invalid request");
    CHECK(first_detail(no_body) == " is Invalid input: expected object, received undefined");

    auto bad_name =
        http_json("POST", url, {{"name", "no spaces"}, {"accountSlug", "default"}}, pat);
    CHECK(bad_name.status == 400);
    CHECK(first_detail(bad_name) ==
          "name is Project name can only contain letters, numbers, "
          "dots, hyphens and underscores.");
    // A body without a token is never read: 401 (Argos validates first).
    auto unauthenticated = http_json("POST", url, {{"accountSlug", "default"}});
    CHECK(unauthenticated.status == 401);

    auto with_project_token = http_json("POST", url, {{"name", "web"}, {"accountSlug", "default"}},
                                        server.project_token());
    CHECK(with_project_token.status == 401);
    CHECK(error_of(with_project_token) ==
          "This endpoint requires a personal access token. See https://argos-ci.com/docs for "
          "details.");

    auto out_of_scope = http_json("POST", url, {{"name", "web"}, {"accountSlug", "other"}}, pat);
    CHECK(out_of_scope.status == 401);
    CHECK(error_of(out_of_scope) ==
          "You do not have access to this account. Check that your "
          "personal access token is scoped to it.");

    auto reserved = http_json("POST", url, {{"name", "settings"}, {"accountSlug", "default"}}, pat);
    CHECK(reserved.status == 400);
    CHECK(error_of(reserved) == "Name is reserved for internal usage");

    auto created =
        http_json("POST", url, {{"name", "  web-app  "}, {"accountSlug", "default"}}, pat);
    REQUIRE(created.status == 201);
    CHECK(created.json()["name"] == "web-app");
    CHECK(created.json()["account"]["slug"] == "default");

    auto duplicate = http_json("POST", url, {{"name", "WEB-APP"}, {"accountSlug", "default"}}, pat);
    CHECK(duplicate.status == 409);
    CHECK(error_of(duplicate) == "Name is already used by another project");

    auto member = member_token(server, "mia", "member");
    auto not_admin = http_json("POST", url, {{"name", "mine"}, {"accountSlug", "default"}}, member);
    CHECK(not_admin.status == 403);
    CHECK(error_of(not_admin) == "You do not have permission to create a project on this account.");
}

TEST_CASE("GET /accounts/{accountSlug}/projects pages visible projects, most recent first") {
    InProcessServer server;
    const auto& pat = server.personal_token();
    const auto url = server.base_url() + "/v2/accounts/default/projects";
    http_json("POST", server.base_url() + "/v2/projects",
              {{"name", "alpha"}, {"accountSlug", "default"}}, pat);
    http_json("POST", server.base_url() + "/v2/projects",
              {{"name", "beta"}, {"accountSlug", "default"}}, pat);

    auto all = http_get(url, pat);
    REQUIRE(all.status == 200);
    auto body = all.json();
    CHECK(body["pageInfo"]["total"] == 3);
    CHECK(body["pageInfo"]["page"] == 1);
    CHECK(body["pageInfo"]["perPage"] == 30);
    REQUIRE(body["results"].size() == 3);
    CHECK(body["results"][0]["name"] == "beta");

    auto second = http_get(url + "?perPage=1&page=2", pat).json();
    CHECK(second["pageInfo"]["total"] == 3);
    REQUIRE(second["results"].size() == 1);
    CHECK(second["results"][0]["name"] == "alpha");
    CHECK(http_get(url + "?page=9", pat).json()["results"].empty());

    auto nan = http_get(url + "?perPage=abc", pat);
    CHECK(nan.status == 400);
    CHECK(first_detail(nan) == " is Invalid input: expected number, received NaN");
    auto too_big = http_get(url + "?perPage=101", pat);
    CHECK(first_detail(too_big) == " is Too big: expected number to be <=100");

    auto with_project_token = http_get(url, server.project_token());
    CHECK(with_project_token.status == 401);
    auto other = http_get(server.base_url() + "/v2/accounts/nobody/projects", pat);
    CHECK(other.status == 401);
    CHECK(error_of(other) ==
          "You do not have access to this account. Check that your personal "
          "access token is scoped to it.");

    auto contributor = member_token(server, "carl", "contributor");
    auto limited = http_get(url, contributor);
    REQUIRE(limited.status == 200);
    CHECK(limited.json()["pageInfo"]["total"] == 0);
}

TEST_CASE("an expired or revoked personal access token is refused") {
    InProcessServer server;
    auto token = find_token(
        admin(server, {"token", "create", "--user", "admin", "--account", "default"}), "arp_");
    REQUIRE(!token.empty());
    CHECK(http_get(server.base_url() + "/v2/accounts/default/projects", token).status == 200);
    admin(server, {"token", "revoke", "--prefix", token.substr(0, 12)});
    auto revoked = http_get(server.base_url() + "/v2/accounts/default/projects", token);
    CHECK(revoked.status == 401);
    CHECK(error_of(revoked) == "Access token not found");
}
