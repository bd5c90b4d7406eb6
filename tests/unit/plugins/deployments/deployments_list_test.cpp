// End to end: GET /projects/{owner}/{project}/deployments on a real server, on SQLite or
// PostgreSQL: order, pages, filters, aliases, signed URLs, refusals and access.
#include <doctest/doctest.h>

#include "deployments_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

HttpResult list(const TestServer& server, const std::string& query = "",
                std::optional<std::string> token = std::nullopt,
                const std::string& project = "default/default") {
    return http_get(server.base_url() + "/v2/projects/" + project + "/deployments" + query,
                    token ? *token : server.project_token());
}

HttpResult list_without_token(const TestServer& server, const std::string& query = "") {
    return http_get(server.base_url() + "/v2/projects/default/default/deployments" + query);
}

std::vector<std::string> ids_of(const json& page) {
    std::vector<std::string> ids;
    for (const auto& deployment : page["results"]) {
        ids.push_back(deployment["id"]);
    }
    return ids;
}

/// True for a private link: its 32-character key stands where the site's name stands.
bool is_signed(const json& url) {
    const std::string text = url.get<std::string>();
    const auto start = text.find("/d/") + 3;
    const std::string name = text.substr(start, text.find('/', start) - start);
    return name.size() == 32 && name.find('-') == std::string::npos;
}

}  // namespace

TEST_CASE("deployments: the list of a project's deployments, newest first, with aliases") {
    InProcessServer server(deployments_server_options());
    const std::vector<SiteFileSpec> site = {{"index.html", "<p>list</p>"}};
    const auto older = deploy(server, site, "feature-x");
    const auto production = deploy(server, site, "main", {{"prNumber", 12}});
    const auto newer = deploy(server, site, "feature-x");
    const auto pending = create_deployment(server, deployment_body(site, "wip"));
    REQUIRE(pending.status == 201);
    const std::string pending_id = pending.json()["deploymentId"];

    auto result = list(server);
    REQUIRE(result.status == 200);
    auto page = result.json();
    CHECK(page["pageInfo"] == json{{"total", 4}, {"page", 1}, {"perPage", 30}});
    CHECK(ids_of(page) ==
          std::vector<std::string>{pending_id, newer["id"], production["id"], older["id"]});

    const auto& first = page["results"][0];
    CHECK(first["status"] == "pending");
    CHECK(first["branch"] == "wip");
    CHECK(first["aliases"].empty());
    CHECK(first["prNumber"].is_null());

    // The newest deployment of a branch holds the branch alias; the older one lost it.
    const auto& latest = page["results"][1];
    CHECK(latest["status"] == "ready");
    CHECK(latest["environment"] == "preview");
    CHECK(latest["commitSha"] == std::string(40, 'c'));
    CHECK(latest["createdAt"].get<std::string>().size() == 24);
    CHECK(site_path(latest) == site_path(newer));
    REQUIRE(latest["aliases"].size() == 1);
    CHECK(latest["aliases"][0]["name"] == "default--feature-x--default");
    CHECK(latest["aliases"][0]["type"] == "branch");
    CHECK(page["results"][3]["aliases"].empty());

    // A production deployment holds its branch's alias and the project's production alias.
    const auto& prod = page["results"][2];
    CHECK(prod["environment"] == "production");
    CHECK(prod["prNumber"] == 12);
    REQUIRE(prod["aliases"].size() == 2);
    CHECK(prod["aliases"][0]["name"] == "default--default");
    CHECK(prod["aliases"][0]["type"] == "production");
    CHECK(prod["aliases"][1]["name"] == "default--main--default");
    CHECK(prod["aliases"][1]["type"] == "branch");

    // The default project is private: every URL handed out is a private link that opens the
    // site; the site's own name does not.
    CHECK(is_signed(latest["url"]));
    CHECK(is_signed(prod["aliases"][0]["url"]));
    const std::string alias_url = prod["aliases"][0]["url"];
    CHECK(alias_url.rfind(sites_url(server) + "/d/", 0) == 0);
    const auto opened = http_get(alias_url);
    CHECK(opened.status == 200);
    CHECK(opened.body == "<p>list</p>");
    CHECK(http_get(sites_url(server) + "/d/default--default/").status == 401);
    // Listing again hands out the same links (no new ones while they are fresh).
    CHECK(list(server).json()["results"][2]["aliases"][0]["url"] == alias_url);

    {
        INFO("pages and filters");
        page = list(server, "?perPage=2&page=2").json();
        CHECK(page["pageInfo"] == json{{"total", 4}, {"page", 2}, {"perPage", 2}});
        CHECK(ids_of(page) == std::vector<std::string>{production["id"], older["id"]});
        CHECK(list(server, "?page=3&perPage=2").json()["results"].empty());

        page = list(server, "?branch=feature-x").json();
        CHECK(page["pageInfo"]["total"] == 2);
        CHECK(ids_of(page) == std::vector<std::string>{newer["id"], older["id"]});
        page = list(server, "?environment=production").json();
        CHECK(ids_of(page) == std::vector<std::string>{production["id"]});
        page = list(server, "?branch=feature-x&environment=production").json();
        CHECK(page["pageInfo"]["total"] == 0);
        CHECK(page["results"].empty());
        // A branch name is matched exactly, never as a pattern.
        CHECK(list(server, "?branch=feature-%25").json()["pageInfo"]["total"] == 0);
    }

    {
        INFO("bad queries are refused before the token is checked");
        for (const std::string query : {"?perPage=0", "?perPage=101", "?page=0", "?page=x"}) {
            CAPTURE(query);
            CHECK(list(server, query).status == 400);
        }
        result = list_without_token(server, "?environment=staging");
        CHECK(result.status == 400);
        CHECK(first_detail(result) ==
              "environment is Invalid option: expected one of \"preview\"|\"production\"");
        result = list(server, "?branch=");
        CHECK(result.status == 400);
        CHECK(first_detail(result) ==
              "branch is Too small: expected string to have >=1 characters");
        result = list(server, "?branch=a&branch=b");
        CHECK(result.status == 400);
        CHECK(first_detail(result) == "branch is Invalid input: expected string, received array");
    }

    {
        INFO("who may list: the project's token, a personal token scoped to its account");
        CHECK(list_without_token(server).status == 401);
        CHECK(list(server, "", server.personal_token()).json()["pageInfo"]["total"] == 4);
        CHECK(list(server, "", server.personal_token(), "default/missing").status == 404);

        const auto other =
            admin_json(server, {"project", "create", "--account", "default", "--name", "other"});
        const std::string other_token = other["token"];
        CHECK(list(server, "", other_token).status == 401);
        const auto empty = list(server, "", other_token, "default/other");
        REQUIRE(empty.status == 200);
        CHECK(empty.json()["pageInfo"]["total"] == 0);

        admin_json(server, {"user", "create", "--slug", "eve", "--name", "Eve"});
        admin_json(server, {"account", "create", "--slug", "eve-team", "--name", "Eve's", "--owner",
                            "eve"});
        const std::string eve_token =
            admin_json(server, {"token", "create", "--user", "eve"})["token"];
        CHECK(list(server, "", eve_token).status == 401);

        // A contributor of the team sees the private project's sites only once granted it.
        const auto vic = member_token(server, "vic", "contributor");
        result = list(server, "", vic);
        CHECK(result.status == 403);
        CHECK(error_of(result) == "You do not have permission to view this project");
        admin_json(server, {"project", "grant", "--project", "default/default", "--user", "vic",
                            "--level", "viewer"});
        CHECK(list(server, "", vic).json()["pageInfo"]["total"] == 4);
    }
    {
        INFO("the project's access setting decides which URLs are signed");
        admin_json(server, {"deployments", "settings", "--project", "default/default", "--auth",
                            "domain-private"});
        page = list(server, "?environment=production").json();
        CHECK(is_signed(page["results"][0]["url"]));
        CHECK_FALSE(is_signed(page["results"][0]["aliases"][0]["url"]));
        CHECK(is_signed(page["results"][0]["aliases"][1]["url"]));
        admin_json(server,
                   {"deployments", "settings", "--project", "default/default", "--auth", "public"});
        page = list(server).json();
        for (const auto& deployment : page["results"]) {
            CHECK_FALSE(is_signed(deployment["url"]));
        }
    }
}
