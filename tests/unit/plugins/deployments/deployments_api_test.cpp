// End to end: the deployments API (POST /deployments, finalize, get) on a real server, on
// SQLite or PostgreSQL: every refusal, deduplication and the environment of a deployment.
#include <doctest/doctest.h>

#include <filesystem>

#include "deployments_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

std::vector<SiteFileSpec> small_site(const std::string& seed) {
    return {{"index.html", "<!doctype html><title>" + seed + "</title>", "text/html"},
            {"assets/app.js", "console.log('" + seed + "');", "application/javascript"}};
}

/// The refusal of one POST /deployments body whose first file has `path`.
HttpResult with_path(const TestServer& server, const std::string& path) {
    auto body = deployment_body({{"index.html", "x"}});
    body["files"][0]["path"] = path;
    return create_deployment(server, body);
}

}  // namespace

TEST_CASE("deployments: POST /deployments refuses bad input, nothing is stored") {
    InProcessServer server(deployments_server_options());

    {
        INFO("no token: refused before the body is read, valid or not");
        const auto result = http_json("POST", server.base_url() + "/v2/deployments",
                                      deployment_body(small_site("a")));
        CHECK(result.status == 401);
        const auto invalid =
            http_json("POST", server.base_url() + "/v2/deployments", json::object());
        CHECK(invalid.status == 401);
        const auto with_token = http_json("POST", server.base_url() + "/v2/deployments",
                                          json::object(), server.project_token());
        CHECK(with_token.status == 400);
    }
    {
        INFO("commit null, missing branch, empty file list, bad environment");
        auto body = deployment_body(small_site("a"));
        body["commit"] = nullptr;
        auto result = create_deployment(server, body);
        CHECK(result.status == 400);
        CHECK(result.json()["error"] == "Invalid request");
        CHECK(first_detail(result) == "commit is Invalid input: expected string, received null");

        body = deployment_body(small_site("a"));
        body["files"] = json::array();
        result = create_deployment(server, body);
        CHECK(result.status == 400);
        CHECK(first_detail(result) == "files is Too small: expected array to have >=1 items");

        body = deployment_body(small_site("a"));
        body.erase("branch");
        body["environment"] = "staging";
        result = create_deployment(server, body);
        CHECK(result.status == 400);
        const auto details = result.json()["details"];
        REQUIRE(details.size() == 2);
        CHECK(details[0]["message"] ==
              "branch is Invalid input: expected string, received undefined");
        CHECK(details[1]["message"] ==
              "environment is Invalid option: expected one of \"preview\"|\"production\"");
    }
    {
        INFO("file fields: hash, size, content type, duplicate paths");
        auto body = deployment_body(small_site("a"));
        body["files"][0]["hash"] = "abc";
        body["files"][1]["size"] = 0;
        auto result = create_deployment(server, body);
        CHECK(result.status == 400);
        const auto details = result.json()["details"];
        REQUIRE(details.size() == 2);
        CHECK(details[0]["message"] ==
              "files.0.hash is Invalid string: must match pattern /^[A-Fa-f0-9]{64}$/");
        CHECK(details[1]["message"] == "files.1.size is Too small: expected number to be >0");

        body = deployment_body(small_site("a"));
        body["files"][0]["contentType"] = "text/html\r\nSet-Cookie: x=1";
        result = create_deployment(server, body);
        CHECK(result.status == 400);
        CHECK(first_detail(result).rfind("files.0.contentType is Invalid string", 0) == 0);

        body = deployment_body(small_site("a"));
        body["files"][1]["path"] = "index.html";
        result = create_deployment(server, body);
        CHECK(result.status == 400);
        CHECK(first_detail(result) == "files is Must be an array of files with unique paths");
    }
    {
        INFO("paths: '..', NUL, backslash, absolute, empty or '.' segments, over 1,024 bytes");
        for (const std::string& path : std::vector<std::string>{
                 "../secret", "assets/../../x", "..", "a/..", std::string("a\0b", 3), "a\\b",
                 "/etc/passwd", "a//b", "./a", "a/./b", "a/", "tab\there"}) {
            CAPTURE(path);
            const auto result = with_path(server, path);
            CHECK(result.status == 400);
            CHECK(first_detail(result).rfind("files.0.path is Invalid path", 0) == 0);
        }
        const auto long_path = with_path(server, std::string(1025, 'a'));
        CHECK(long_path.status == 400);
        CHECK(first_detail(long_path) ==
              "files.0.path is Too big: expected string to have <=1024 bytes");
        // At the limit, and names that merely contain dots, are fine.
        CHECK(with_path(server, std::string(1024, 'a')).status == 201);
        CHECK(with_path(server, "chunk..js").status == 201);
        CHECK(with_path(server, ".well-known/x").status == 201);
        execute_sql(server, "DELETE FROM deployment_files");
        execute_sql(server, "DELETE FROM deployments");
    }
    {
        INFO("more than 50,000 files");
        json files = json::array();
        const std::string hash(64, 'a');
        for (int i = 0; i <= 50000; ++i) {
            files.push_back({{"path", "f" + std::to_string(i)},
                             {"hash", hash},
                             {"size", 1},
                             {"contentType", "text/plain"}});
        }
        auto body = deployment_body(small_site("a"));
        body["files"] = files;
        const auto result = create_deployment(server, body);
        CHECK(result.status == 400);
        CHECK(first_detail(result) == "files is Too big: expected array to have <=50000 items");
    }
    {
        INFO("a project with deployments disabled");
        admin_json(server, {"deployments", "settings", "--project", "default/default", "--enabled",
                            "false"});
        const auto result = create_deployment(server, deployment_body(small_site("a")));
        CHECK(result.status == 403);
        CHECK(result.json()["error"] == "Deployments are disabled for this project.");
        admin_json(server, {"deployments", "settings", "--project", "default/default", "--enabled",
                            "true"});
    }
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployments") == 0);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployment_files") == 0);
}

TEST_CASE("deployments: finalize and get refuse unknown, foreign, incomplete and finalized") {
    InProcessServer server(deployments_server_options());
    const auto files = small_site("a");
    const auto created = create_deployment(server, deployment_body(files));
    REQUIRE(created.status == 201);
    const std::string id = created.json()["deploymentId"];
    const auto uploads = created.json()["uploadFiles"];
    REQUIRE(uploads.size() == 2);

    // Nothing uploaded yet: finalize names every missing path and leaves it pending.
    auto result = finalize_deployment(server, id);
    CHECK(result.status == 400);
    CHECK(result.json()["error"].get<std::string>().rfind("2 files were not uploaded", 0) == 0);
    REQUIRE(result.json()["details"].size() == 2);
    CHECK(result.json()["details"][0]["message"] == "assets/app.js was not uploaded");
    CHECK(result.json()["details"][1]["message"] == "index.html was not uploaded");
    CHECK(http_get(server.base_url() + "/v2/deployments/" + id, server.project_token())
              .json()["status"] == "pending");

    // Bytes that do not hash to the declared hash are refused and not stored.
    const std::string put_url = uploads[0]["uploadUrl"];
    const std::string key = uploads[0]["hash"];
    const auto wrong =
        http(HttpCall{"PUT", put_url, "not the declared bytes", "text/html", std::nullopt, {}});
    CHECK(wrong.status == 400);
    CHECK_FALSE(std::filesystem::exists(blob_file(server, key)));

    upload_listed(created.json(), files);
    result = finalize_deployment(server, id);
    REQUIRE(result.status == 200);
    const auto deployment = result.json();
    CHECK(deployment["id"] == id);
    CHECK(deployment["status"] == "ready");
    CHECK(deployment["environment"] == "preview");
    CHECK(deployment["branch"] == "feature-x");
    CHECK(deployment["commitSha"] == std::string(40, 'c'));
    // A private project's site: a private link on the sites listener.
    CHECK(deployment["url"].get<std::string>().rfind(sites_url(server) + "/d/", 0) == 0);
    CHECK(deployment["createdAt"].get<std::string>().size() == 24);

    result = finalize_deployment(server, id);
    CHECK(result.status == 400);
    CHECK(result.json()["error"] == "Deployment is not in pending status");

    const auto got = http_get(server.base_url() + "/v2/deployments/" + id, server.project_token());
    CHECK(got.status == 200);
    CHECK(got.json()["status"] == "ready");
    CHECK(got.json()["url"] == deployment["url"]);

    for (const std::string unknown : {"999999", "abc", "0", "-1", "1e3"}) {
        CAPTURE(unknown);
        const auto missing =
            http_get(server.base_url() + "/v2/deployments/" + unknown, server.project_token());
        CHECK(missing.status == 404);
        CHECK(missing.json()["error"] == "Deployment not found");
        CHECK(finalize_deployment(server, unknown).status == 404);
    }

    // Another project's token: 401, before the status check.
    const auto other =
        admin_json(server, {"project", "create", "--account", "default", "--name", "other"});
    const std::string other_token = other["token"];
    result = http_get(server.base_url() + "/v2/deployments/" + id, other_token);
    CHECK(result.status == 401);
    CHECK(result.json()["error"] == "Unauthorized");
    CHECK(finalize_deployment(server, id, other_token).status == 401);
    CHECK(http_get(server.base_url() + "/v2/deployments/" + id, server.personal_token()).status ==
          401);
}

TEST_CASE("deployments: contents are uploaded once, whatever the paths and deployments") {
    InProcessServer server(deployments_server_options());
    const std::string shared = "body { color: red; }";
    std::vector<SiteFileSpec> first = {{"index.html", "<p>one</p>"},
                                       {"a.css", shared, "text/css"},
                                       {"copy/a.css", shared, "text/css"}};
    const auto created = create_deployment(server, deployment_body(first));
    REQUIRE(created.status == 201);
    const auto uploads = created.json()["uploadFiles"];
    // Each missing hash once, at the first path that uses it.
    REQUIRE(uploads.size() == 2);
    CHECK(uploads[0]["path"] == "index.html");
    CHECK(uploads[1]["path"] == "a.css");
    CHECK(uploads[1]["hash"] == sha256_hex(shared));
    upload_listed(created.json(), first);
    REQUIRE(finalize_deployment(server, created.json()["deploymentId"]).status == 200);

    // The second deployment shares every file: nothing to upload, and it finalizes.
    const auto second = create_deployment(server, deployment_body(first, "other-branch"));
    REQUIRE(second.status == 201);
    CHECK(second.json()["uploadFiles"].empty());
    CHECK(finalize_deployment(server, second.json()["deploymentId"]).status == 200);

    // A third with one new file asks for that one only.
    auto third_files = first;
    third_files.push_back({"new.txt", "fresh", "text/plain"});
    const auto third = create_deployment(server, deployment_body(third_files));
    REQUIRE(third.status == 201);
    REQUIRE(third.json()["uploadFiles"].size() == 1);
    CHECK(third.json()["uploadFiles"][0]["path"] == "new.txt");
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployment_contents") == 2);
}

TEST_CASE("deployments: the environment follows the production-branch glob") {
    InProcessServer server(deployments_server_options());
    const auto files = small_site("env");
    // Default: the project's default base branch.
    CHECK(deploy(server, files, "main")["environment"] == "production");
    CHECK(deploy(server, files, "main-2")["environment"] == "preview");
    CHECK(deploy(server, files, "feature/main")["environment"] == "preview");
    CHECK(deploy(server, files, "main", {{"environment", "preview"}})["environment"] == "preview");

    const auto settings =
        admin_json(server, {"deployments", "settings", "--project", "default/default",
                            "--production-branch-glob", "release/*"});
    CHECK(settings["productionBranchGlob"] == "release/*");
    CHECK(deploy(server, files, "release/1.0")["environment"] == "production");
    CHECK(deploy(server, files, "release/1.0/hotfix")["environment"] == "preview");
    CHECK(deploy(server, files, "main")["environment"] == "preview");
    admin_json(server, {"deployments", "settings", "--project", "default/default",
                        "--production-branch-glob", "release/**"});
    CHECK(deploy(server, files, "release/1.0/hotfix")["environment"] == "production");
}

namespace {

json deploy_as(const TestServer& server, const std::string& token, const std::string& html,
               const std::string& branch) {
    const std::vector<SiteFileSpec> files = {{"index.html", html}};
    const auto created = create_deployment(server, deployment_body(files, branch), token);
    INFO(created.body);
    REQUIRE(created.status == 201);
    upload_listed(created.json(), files);
    const auto finalized = finalize_deployment(server, created.json()["deploymentId"], token);
    INFO(finalized.body);
    REQUIRE(finalized.status == 200);
    return finalized.json();
}

std::vector<std::string> alias_names(const TestServer& server, const std::string& project) {
    const auto page =
        http_get(server.base_url() + "/v2/projects/default/" + project + "/deployments",
                 server.personal_token())
            .json();
    std::vector<std::string> names;
    for (const auto& alias : page["results"][0]["aliases"]) {
        names.push_back(alias["name"]);
    }
    return names;
}

std::string new_public_project(const TestServer& server, const std::string& name) {
    const std::string token =
        admin_json(server, {"project", "create", "--account", "default", "--name", name})["token"];
    admin_json(server,
               {"deployments", "settings", "--project", "default/" + name, "--auth", "public"});
    return token;
}

}  // namespace

TEST_CASE("deployments: a project's branch alias never takes another project's alias") {
    InProcessServer server(deployments_server_options({{"plugins.deployments.cache_ttl_ms", "0"}}));
    const std::string web_app = new_public_project(server, "web-app");
    const std::string web = new_public_project(server, "web");
    // Joined with single dashes, project `web` deploying branch `app` and project `web-app`'s
    // production both were "web-app-default": the second one lost its alias without a word.
    deploy_as(server, web_app, "<p>web-app production</p>", "main");
    deploy_as(server, web, "<p>web, branch app</p>", "app");
    CHECK(alias_names(server, "web-app") ==
          std::vector<std::string>{"web-app--default", "web-app--main--default"});
    CHECK(alias_names(server, "web") == std::vector<std::string>{"web--app--default"});
    CHECK(http_get(sites_url(server) + "/d/web-app--default/").body == "<p>web-app production</p>");
    CHECK(http_get(sites_url(server) + "/d/web--app--default/").body == "<p>web, branch app</p>");

    // Names that are not plain slugs end with a digest of the name, so "Web.App" is not
    // "web-app". A collision the encoding cannot rule out (a project named like that digest)
    // is refused loudly, before any upload and again at finalization.
    const std::string digest = sha256_hex("Web.App").substr(0, 8);
    const std::string dotted = new_public_project(server, "Web.App");
    const std::string lookalike = new_public_project(server, "web-app-" + digest);
    const std::vector<SiteFileSpec> files = {{"index.html", "<p>lookalike</p>"}};
    const auto pending = create_deployment(server, deployment_body(files, "main"), lookalike);
    REQUIRE(pending.status == 201);
    upload_listed(pending.json(), files);
    deploy_as(server, dotted, "<p>Web.App production</p>", "main");
    CHECK(alias_names(server, "Web.App") ==
          std::vector<std::string>{"web-app-" + digest + "--default",
                                   "web-app-" + digest + "--main--default"});

    const std::string name = "web-app-" + digest + "--default";
    // Both its aliases are taken; the branch alias is named first.
    const std::string branch_name = "web-app-" + digest + "--main--default";
    auto result = finalize_deployment(server, pending.json()["deploymentId"], lookalike);
    CHECK(result.status == 409);
    CHECK(result.json()["error"] == "Site name conflict: \"" + branch_name +
                                        "\" already belongs to another project's deployments");
    CHECK(first_detail(result).find("rename this project or the branch") != std::string::npos);
    CHECK(http_get(server.base_url() + "/v2/deployments/" +
                       pending.json()["deploymentId"].get<std::string>(),
                   lookalike)
              .json()["status"] == "pending");
    result = create_deployment(server, deployment_body(files, "main"), lookalike);
    CHECK(result.status == 409);
    CHECK(http_get(sites_url(server) + "/d/" + name + "/").body == "<p>Web.App production</p>");
    // Its preview branches do not collide, and deploy.
    deploy_as(server, lookalike, "<p>lookalike preview</p>", "feature");
}

TEST_CASE("deployments: an alias named before the \"--\" encoding keeps following its project") {
    InProcessServer server(deployments_server_options({{"plugins.deployments.cache_ttl_ms", "0"}}));
    admin_json(server,
               {"deployments", "settings", "--project", "default/default", "--auth", "public"});
    const auto first = deploy_as(server, server.project_token(), "<p>one</p>", "feature-x");
    // What an older version left: the alias under its old name, marked legacy by the migration.
    execute_sql(server,
                "INSERT INTO deployment_aliases (alias, project_id, deployment_id, type, "
                "updated_at, legacy) SELECT 'default-feature-x-default', project_id, id, "
                "'branch', 0, 1 FROM deployments WHERE id = " +
                    first["id"].get<std::string>());
    CHECK(http_get(sites_url(server) + "/d/default-feature-x-default/").body == "<p>one</p>");
    deploy_as(server, server.project_token(), "<p>two</p>", "feature-x");
    CHECK(http_get(sites_url(server) + "/d/default-feature-x-default/").body == "<p>two</p>");
    CHECK(http_get(sites_url(server) + "/d/default--feature-x--default/").body == "<p>two</p>");
    // The list shows the current names only.
    CHECK(alias_names(server, "default") ==
          std::vector<std::string>{"default--feature-x--default"});
}

TEST_CASE("deployments: files and bytes per deployment are limited, with a clear 413") {
    InProcessServer server(deployments_server_options(
        {{"plugins.deployments.max_files", "3"}, {"plugins.deployments.max_bytes", "100"}}));
    std::vector<SiteFileSpec> four;
    for (int i = 0; i < 4; ++i) {
        four.push_back({"page" + std::to_string(i) + ".html", "<p>" + std::to_string(i) + "</p>"});
    }
    auto result = create_deployment(server, deployment_body(four));
    CHECK(result.status == 413);
    CHECK(result.json()["error"] ==
          "Deployment too large: 4 files, over this server's limit of 3 files per deployment");
    CHECK(first_detail(result).find("plugins.deployments.max_files") != std::string::npos);

    const std::vector<SiteFileSpec> heavy = {{"a.html", std::string(60, 'a')},
                                             {"b.html", std::string(41, 'b')}};
    result = create_deployment(server, deployment_body(heavy));
    CHECK(result.status == 413);
    CHECK(result.json()["error"] ==
          "Deployment too large: 101 bytes declared, over this "
          "server's limit of 100 bytes per deployment");
    auto huge = deployment_body(heavy);
    // The largest size a JSON client can declare exactly (2^53 - 1), twice: no overflow.
    huge["files"][0]["size"] = 9007199254740991LL;
    huge["files"][1]["size"] = 9007199254740991LL;
    result = create_deployment(server, huge);
    CHECK(result.status == 413);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployments") == 0);

    // A client that understates its sizes is caught at finalization, by what was stored.
    const std::vector<SiteFileSpec> understated = {{"big.html", std::string(150, 'c')}};
    auto body = deployment_body(understated);
    body["files"][0]["size"] = 10;
    const auto created = create_deployment(server, body);
    REQUIRE(created.status == 201);
    // Kept: a range-for over a member of the temporary json() would read freed memory.
    const auto created_json = created.json();
    for (const auto& target : created_json["uploadFiles"]) {
        http(HttpCall{
            "PUT", target["uploadUrl"], understated[0].bytes, "text/html", std::nullopt, {}});
    }
    result = finalize_deployment(server, created.json()["deploymentId"]);
    if (result.status != 400) {  // unless the upload itself refused the size
        CHECK(result.status == 413);
        CHECK(result.json()["error"] ==
              "Deployment too large: 150 bytes uploaded, over this "
              "server's limit of 100 bytes per deployment");
    }
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployments WHERE status = 'ready'") == 0);

    // Within the limits, a deployment goes through.
    deploy(server, {{"index.html", std::string(50, 'i')}, {"a.js", "x();", "text/javascript"}});
}
