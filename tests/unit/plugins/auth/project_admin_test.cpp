// Project administration through the API the official CLI 6.x uses (`argos project update`):
// PATCH /projects/{owner}/{project} changes core's fields and the plugins' settings fields in
// one transaction, for project administrators only. One server for the file; each test makes
// the team and project it changes.
#include <doctest/doctest.h>

#include <string>

#include "loupe/json.hpp"
#include "support/admin_cli.hpp"
#include "support/server_database.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

ServerProcess& project_admin_server() {
    static ServerProcess instance(ServerOptions{{"auth", "builds", "deployments", "git"}, {}, {}});
    return instance;
}

std::string project_url(const std::string& path) {
    return project_admin_server().base_url() + "/v2/projects/" + path;
}

/// A team `team` owned by `<team>-owner` with a project `web`; returns the owner's token.
std::string team_project(const std::string& team) {
    auto& server = project_admin_server();
    const std::string owner = team + "-owner";
    admin(server, {"user", "create", "--slug", owner, "--name", owner});
    admin(server, {"account", "create", "--slug", team, "--name", team, "--owner", owner});
    admin(server, {"project", "create", "--account", team, "--name", "web"});
    auto token =
        find_token(admin(server, {"token", "create", "--user", owner, "--account", team}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

/// A contributor `slug` of `team` with `level` on `team/web`; returns their token.
std::string contributor(const std::string& team, const std::string& slug,
                        const std::string& level) {
    auto& server = project_admin_server();
    admin(server, {"user", "create", "--slug", slug, "--name", slug});
    admin(server, {"member", "add", "--account", team, "--user", slug, "--role", "contributor"});
    admin(server,
          {"project", "grant", "--project", team + "/web", "--user", slug, "--level", level});
    auto token =
        find_token(admin(server, {"token", "create", "--user", slug, "--account", team}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

HttpResult patch_project(const std::string& path, const json& body, const std::string& token) {
    return http_json("PATCH", project_url(path), body, token);
}

}  // namespace

TEST_CASE("PATCH /projects/{owner}/{project} changes every field the Argos schema accepts") {
    const std::string owner = team_project("patchall");
    const json changes = {
        {"defaultBaseBranch", "develop"},
        {"autoApprovedBranchGlob", "release/*"},
        {"deploymentProductionBranchGlob", "prod"},
        {"private", false},
        {"summaryCheck", "never"},
        {"defaultUserLevel", "reviewer"},
        {"ignoreConfig", {{"enabled", false}, {"autoIgnore", {{"changes", 5}}}}},
        {"deploymentEnabled", false},
        {"deploymentAuth", "public"},
        {"githubActionsOidcEnabled", true},
        {"tokenlessAuthEnabled", true},
        {"unknownField", 1},  // ignored, as Argos ignores keys its schema does not know
    };
    const auto changed = patch_project("patchall/web", changes, owner);
    REQUIRE_MESSAGE(changed.status == 200, changed.body);
    const json shown = changed.json();
    CHECK(shown["name"] == "web");
    CHECK(shown["defaultBaseBranch"] == "develop");
    CHECK(shown["autoApprovedBranchGlob"] == "release/*");
    CHECK(shown["deploymentProductionBranchGlob"] == "prod");
    CHECK(shown["private"] == false);
    CHECK(shown["summaryCheck"] == "never");
    CHECK(shown["defaultUserLevel"] == "reviewer");
    CHECK(shown["ignoreConfig"]["enabled"] == false);
    CHECK(shown["ignoreConfig"]["autoIgnore"]["changes"] == 5);
    CHECK(shown["deploymentEnabled"] == false);
    CHECK(shown["deploymentAuth"] == "public");
    CHECK(shown["githubActionsOidcEnabled"] == true);
    CHECK(shown["tokenlessAuthEnabled"] == true);
    CHECK_FALSE(shown.contains("unknownField"));
    // Stored: GET shows the same resource.
    CHECK(http_get(project_url("patchall/web"), owner).json() == shown);

    // null restores the defaults of the nullable fields; absent fields stay as they are.
    const auto reset = patch_project("patchall/web",
                                     {{"defaultBaseBranch", nullptr},
                                      {"autoApprovedBranchGlob", nullptr},
                                      {"private", nullptr},
                                      {"defaultUserLevel", nullptr}},
                                     owner);
    REQUIRE_MESSAGE(reset.status == 200, reset.body);
    CHECK(reset.json()["defaultBaseBranch"] == "main");
    CHECK(reset.json()["autoApprovedBranchGlob"] == "main");
    CHECK(reset.json()["private"] == true);
    CHECK(reset.json()["defaultUserLevel"].is_null());
    CHECK(reset.json()["deploymentProductionBranchGlob"] == "prod");
    CHECK(reset.json()["summaryCheck"] == "never");
    // An empty body changes nothing.
    const auto nothing = patch_project("patchall/web", json::object(), owner);
    REQUIRE(nothing.status == 200);
    CHECK(nothing.json() == reset.json());
}

TEST_CASE("PATCH /projects/{owner}/{project} renames within the account's free names") {
    const std::string owner = team_project("renamed");
    admin(project_admin_server(), {"project", "create", "--account", "renamed", "--name", "api"});

    const auto renamed = patch_project("renamed/web", {{"name", "  site  "}}, owner);
    REQUIRE_MESSAGE(renamed.status == 200, renamed.body);
    CHECK(renamed.json()["name"] == "site");
    CHECK(http_get(project_url("renamed/site"), owner).status == 200);
    CHECK(http_get(project_url("renamed/web"), owner).status == 404);
    // Its own name in another case is free; another project's name is not, in any case.
    CHECK(patch_project("renamed/site", {{"name", "Site"}}, owner).json()["name"] == "Site");
    const auto taken = patch_project("renamed/Site", {{"name", "API"}}, owner);
    CHECK(taken.status == 400);
    CHECK(first_detail(taken).find("Name is already used by another project") != std::string::npos);
    const auto reserved = patch_project("renamed/Site", {{"name", "settings"}}, owner);
    CHECK(reserved.status == 400);
    const auto invalid = patch_project("renamed/Site", {{"name", "a b"}}, owner);
    CHECK(invalid.status == 400);
    CHECK(http_get(project_url("renamed/Site"), owner).status == 200);
}

TEST_CASE("PATCH /projects/{owner}/{project} refuses bad values and changes nothing then") {
    const std::string owner = team_project("refused");
    const json before = http_get(project_url("refused/web"), owner).json();
    const auto expect_refused = [&](const json& body, const std::string& field) {
        const auto answer = patch_project("refused/web", body, owner);
        CHECK_MESSAGE(answer.status == 400, body.dump() << " → " << answer.body);
        CHECK_MESSAGE(answer.json()["details"][0]["message"].get<std::string>().find(field) !=
                          std::string::npos,
                      answer.body);
    };
    expect_refused({{"summaryCheck", "sometimes"}}, "summaryCheck");
    expect_refused({{"defaultUserLevel", "owner"}}, "defaultUserLevel");
    expect_refused({{"private", "yes"}}, "private");
    expect_refused({{"deploymentAuth", "secret"}}, "deploymentAuth");
    expect_refused({{"deploymentEnabled", nullptr}}, "deploymentEnabled");
    expect_refused({{"defaultBaseBranch", ""}}, "defaultBaseBranch");
    expect_refused({{"autoApprovedBranchGlob", 3}}, "autoApprovedBranchGlob");
    expect_refused({{"ignoreConfig", {{"enabled", true}, {"autoIgnore", {{"changes", 0}}}}}},
                   "ignoreConfig.autoIgnore.changes");
    expect_refused({{"name", 7}}, "name");
    // One bad field fails the whole change: the good fields before it are not kept.
    expect_refused({{"deploymentEnabled", false}, {"summaryCheck", "sometimes"}}, "summaryCheck");
    CHECK(patch_project("refused/web", json::array(), owner).status == 400);
    CHECK(http_get(project_url("refused/web"), owner).json() == before);
}

TEST_CASE("PATCH /projects/{owner}/{project} is for project administrators") {
    const std::string owner = team_project("guarded");
    const std::string project_admin = contributor("guarded", "guarded-admin", "admin");
    const std::string reviewer = contributor("guarded", "guarded-reviewer", "reviewer");

    const auto by_admin = patch_project("guarded/web", {{"summaryCheck", "always"}}, project_admin);
    REQUIRE_MESSAGE(by_admin.status == 200, by_admin.body);
    CHECK(by_admin.json()["summaryCheck"] == "always");
    const auto by_reviewer = patch_project("guarded/web", {{"summaryCheck", "never"}}, reviewer);
    CHECK(by_reviewer.status == 403);
    CHECK(error_of(by_reviewer) == "You are not an administrator of this project.");
    CHECK(patch_project("guarded/web", {{"summaryCheck", "never"}},
                        project_admin_server().project_token())
              .status != 200);
    CHECK(http_json("PATCH", project_url("guarded/web"), {{"summaryCheck", "never"}}).status ==
          401);
    CHECK(patch_project("guarded/nothing", {{"summaryCheck", "never"}}, owner).status == 404);
    CHECK(http_get(project_url("guarded/web"), owner).json()["summaryCheck"] == "always");
}

namespace {

/// Adds user `slug` to `team` with `role` (no project level); returns their token.
std::string team_person(const std::string& team, const std::string& slug, const std::string& role) {
    auto& server = project_admin_server();
    admin(server, {"user", "create", "--slug", slug, "--name", "Name " + slug});
    admin(server, {"member", "add", "--account", team, "--user", slug, "--role", role});
    auto token =
        find_token(admin(server, {"token", "create", "--user", slug, "--account", team}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

/// `user.id` (the personal account's id) of `slug`, as the team's member list shows it.
std::string user_id_of(const std::string& team, const std::string& token, const std::string& slug) {
    const auto listed = http_get(
        project_admin_server().base_url() + "/v2/accounts/" + team + "/members?perPage=100", token);
    REQUIRE_MESSAGE(listed.status == 200, listed.body);
    const json members = listed.json();
    for (const auto& member : members["results"]) {
        if (member["user"]["slug"] == slug) {
            return member["user"]["id"];
        }
    }
    FAIL("no member " << slug << " in " << team << ": " << listed.body);
    return "";
}

HttpResult put_contributor(const std::string& path, const json& body, const std::string& token) {
    return http_json("PUT", project_url(path), body, token);
}

HttpResult delete_contributor(const std::string& path, const std::string& token) {
    return http(HttpCall{"DELETE", project_url(path), "", "application/json", token, {}});
}

}  // namespace

TEST_CASE("project contributors: grant, change, list with paging, remove") {
    const std::string owner = team_project("crew");
    team_person("crew", "crew-ann", "contributor");
    const std::string bob = team_person("crew", "crew-bob", "contributor");
    const std::string ann_id = user_id_of("crew", owner, "crew-ann");
    const std::string bob_id = user_id_of("crew", owner, "crew-bob");

    const auto granted =
        put_contributor("crew/web/contributors/" + ann_id, {{"level", "reviewer"}}, owner);
    REQUIRE_MESSAGE(granted.status == 200, granted.body);
    CHECK(granted.json()["user"]["id"] == ann_id);
    CHECK(granted.json()["user"]["slug"] == "crew-ann");
    CHECK(granted.json()["user"]["name"] == "Name crew-ann");
    CHECK(granted.json()["level"] == "reviewer");
    const std::string grant_id = granted.json()["id"];
    // The same grant again, then a new level: one row, the same id.
    CHECK(put_contributor("crew/web/contributors/" + ann_id, {{"level", "reviewer"}}, owner)
              .json()["id"] == grant_id);
    const auto promoted =
        put_contributor("crew/web/contributors/" + ann_id, {{"level", "admin"}}, owner);
    CHECK(promoted.json()["id"] == grant_id);
    CHECK(promoted.json()["level"] == "admin");
    CHECK(put_contributor("crew/web/contributors/" + bob_id, {{"level", "viewer"}}, owner).status ==
          200);

    const auto listed = http_get(project_url("crew/web/contributors"), owner);
    REQUIRE_MESSAGE(listed.status == 200, listed.body);
    CHECK(listed.json()["pageInfo"]["total"] == 2);
    CHECK(listed.json()["pageInfo"]["perPage"] == 30);
    REQUIRE(listed.json()["results"].size() == 2);
    CHECK(listed.json()["results"][0]["user"]["slug"] == "crew-ann");
    // The caller comes first; a second page of one.
    const auto bobs_view = http_get(project_url("crew/web/contributors?perPage=1"), bob);
    REQUIRE_MESSAGE(bobs_view.status == 200, bobs_view.body);
    CHECK(bobs_view.json()["results"][0]["user"]["slug"] == "crew-bob");
    const auto second = http_get(project_url("crew/web/contributors?perPage=1&page=2"), bob).json();
    CHECK(second["results"][0]["user"]["slug"] == "crew-ann");
    CHECK(http_get(project_url("crew/web/contributors?perPage=0"), owner).status == 400);

    const auto removed = delete_contributor("crew/web/contributors/" + ann_id, owner);
    CHECK(removed.status == 204);
    CHECK(http_get(project_url("crew/web/contributors"), owner).json()["pageInfo"]["total"] == 1);
    const auto again = delete_contributor("crew/web/contributors/" + ann_id, owner);
    CHECK(again.status == 404);
    CHECK(error_of(again) == "This user is not a contributor on the project.");
}

TEST_CASE("project contributors: refusals") {
    const std::string owner = team_project("strict");
    const std::string viewer = team_person("strict", "strict-viewer", "contributor");
    team_person("strict", "strict-other", "contributor");
    const std::string viewer_id = user_id_of("strict", owner, "strict-viewer");
    const std::string other_id = user_id_of("strict", owner, "strict-other");
    REQUIRE(put_contributor("strict/web/contributors/" + viewer_id, {{"level", "viewer"}}, owner)
                .status == 200);
    REQUIRE(put_contributor("strict/web/contributors/" + other_id, {{"level", "viewer"}}, owner)
                .status == 200);

    // Validation.
    const auto bad_level =
        put_contributor("strict/web/contributors/" + viewer_id, {{"level", "owner"}}, owner);
    CHECK(bad_level.status == 400);
    CHECK(first_detail(bad_level).find("level") != std::string::npos);
    CHECK(put_contributor("strict/web/contributors/" + viewer_id, json::object(), owner).status ==
          400);
    const auto bad_id =
        put_contributor("strict/web/contributors/abc", {{"level", "viewer"}}, owner);
    CHECK(bad_id.status == 400);
    CHECK(error_of(bad_id) == "Invalid user account ID.");
    // Unknown users, and people outside the team.
    const auto unknown =
        put_contributor("strict/web/contributors/999999999", {{"level", "viewer"}}, owner);
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "User not found.");
    const std::string outsider_owner = team_project("strict-out");
    const std::string outsider_id = user_id_of("strict-out", outsider_owner, "strict-out-owner");
    CHECK(put_contributor("strict/web/contributors/" + outsider_id, {{"level", "viewer"}}, owner)
              .status == 400);
    CHECK(delete_contributor("strict/web/contributors/999999999", owner).status == 404);

    // Permissions: a viewer lists, cannot grant nor remove someone else, but may leave.
    CHECK(http_get(project_url("strict/web/contributors"), viewer).status == 200);
    const auto by_viewer =
        put_contributor("strict/web/contributors/" + other_id, {{"level", "admin"}}, viewer);
    CHECK(by_viewer.status == 403);
    CHECK(error_of(by_viewer) == "You are not an administrator of this project.");
    CHECK(delete_contributor("strict/web/contributors/" + other_id, viewer).status == 403);
    CHECK(delete_contributor("strict/web/contributors/" + viewer_id, viewer).status == 204);
    // Having left, the viewer (a contributor of the team) no longer reaches the project.
    CHECK(http_get(project_url("strict/web/contributors"), viewer).status == 403);
    CHECK(http_get(project_url("strict/nothing/contributors"), owner).status == 404);
    CHECK(http_get(project_url("strict/web/contributors")).status == 401);
    CHECK(http_get(project_url("strict/web/contributors"), owner).json()["pageInfo"]["total"] == 1);
}
