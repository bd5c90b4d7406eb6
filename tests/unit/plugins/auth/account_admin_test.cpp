// Team administration through the API the official CLI 6.x uses: GET/PATCH /accounts/{slug}
// and a team's members. One server for the file; each test makes the team it changes.
#include <doctest/doctest.h>

#include <string>

#include "loupe/json.hpp"
#include "support/admin_cli.hpp"
#include "support/server_database.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

ServerProcess& admin_server() {
    static ServerProcess instance(ServerOptions{{"auth", "builds"}, {}, {}});
    return instance;
}

std::string account_url(const std::string& path) {
    return admin_server().base_url() + "/v2/accounts/" + path;
}

/// A user `slug` with a personal access token scoped to `account`.
std::string person_with_token(const std::string& slug, const std::string& account) {
    admin(admin_server(), {"user", "create", "--slug", slug, "--name", slug});
    auto token = find_token(
        admin(admin_server(), {"token", "create", "--user", slug, "--account", account}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

/// A team `slug` owned by `<slug>-owner`; returns the owner's token.
std::string team_with_owner(const std::string& slug) {
    const std::string owner = slug + "-owner";
    admin(admin_server(), {"user", "create", "--slug", owner, "--name", owner});
    admin(admin_server(),
          {"account", "create", "--slug", slug, "--name", "Team " + slug, "--owner", owner});
    auto token = find_token(
        admin(admin_server(), {"token", "create", "--user", owner, "--account", slug}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

/// Adds user `slug` (display name `name`) to `team` with `role`; returns their token.
std::string join_team(const std::string& team, const std::string& slug, const std::string& role,
                      const std::string& name) {
    admin(admin_server(), {"user", "create", "--slug", slug, "--name", name});
    admin(admin_server(), {"member", "add", "--account", team, "--user", slug, "--role", role});
    auto token = find_token(
        admin(admin_server(), {"token", "create", "--user", slug, "--account", team}), "arp_");
    REQUIRE(token.size() == 40);
    return token;
}

json members_of(const std::string& team, const std::string& token, const std::string& query = "") {
    const auto answer = http_get(account_url(team + "/members" + query), token);
    REQUIRE_MESSAGE(answer.status == 200, answer.body);
    return answer.json();
}

/// `user.id` of the member with this slug (the id the member routes take).
std::string member_id(const std::string& team, const std::string& token, const std::string& slug) {
    const json listed = members_of(team, token, "?perPage=100");
    for (const auto& member : listed["results"]) {
        if (member["user"]["slug"] == slug) {
            return member["user"]["id"];
        }
    }
    FAIL("no member " << slug << " in " << team);
    return "";
}

std::string level_of(const std::string& team, const std::string& token, const std::string& slug) {
    const json listed = members_of(team, token, "?perPage=100");
    for (const auto& member : listed["results"]) {
        if (member["user"]["slug"] == slug) {
            return member["level"];
        }
    }
    return "";
}

HttpResult delete_member(const std::string& url, const std::string& token) {
    return http(HttpCall{"DELETE", url, "", "application/json", token, {}});
}

long long audit_rows(const std::string& team, const std::string& action) {
    return count_rows(admin_server(),
                      "SELECT COUNT(*) FROM account_audit a JOIN accounts t ON t.id = a.account_id "
                      "WHERE t.slug = '" +
                          team + "' AND a.action = '" + action + "'");
}

}  // namespace

TEST_CASE("GET /accounts/{slug} gives a team's usage over the period and no plan") {
    auto& server = admin_server();
    const auto before = http_get(account_url("default"), server.personal_token());
    REQUIRE_MESSAGE(before.status == 200, before.body);
    const json shown = before.json();
    CHECK(shown["slug"] == "default");
    CHECK(shown["type"] == "team");
    CHECK(shown["id"].is_string());
    CHECK(shown["plan"].is_null());
    CHECK(shown["includedScreenshots"] == 0);
    CHECK(shown["consumptionRatio"] == 0);
    CHECK(shown["additionalScreenshotsCost"] == 0);
    CHECK(shown["defaultUserLevel"] == "member");
    const auto start =
        loupe::parse_iso_time(shown["periodStartDate"].get<std::string>()).value_or(0);
    const auto end = loupe::parse_iso_time(shown["periodEndDate"].get<std::string>()).value_or(0);
    CHECK(end - start == 30LL * 24 * 60 * 60 * 1000);

    wait_concluded(server, push_shots(server, {{"a", png_blob("a")}, {"b", png_blob("b")}},
                                      {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    const json after = http_get(account_url("default"), server.personal_token()).json();
    CHECK(after["currentPeriodScreenshots"].get<int64_t>() ==
          shown["currentPeriodScreenshots"].get<int64_t>() + 2);
    CHECK(after["currentPeriodBuilds"].get<int64_t>() ==
          shown["currentPeriodBuilds"].get<int64_t>() + 1);
}

TEST_CASE("GET /accounts/{slug} of a personal account, and its refusals") {
    auto& server = admin_server();
    const std::string solo = person_with_token("solo", "solo");
    const auto personal = http_get(account_url("solo"), solo);
    REQUIRE_MESSAGE(personal.status == 200, personal.body);
    CHECK(personal.json()["type"] == "user");
    CHECK(personal.json()["defaultUserLevel"].is_null());
    CHECK(personal.json()["currentPeriodScreenshots"] == 0);

    const auto not_a_team = http_get(account_url("solo/members"), solo);
    CHECK(not_a_team.status == 400);
    CHECK(error_of(not_a_team) == "This account is not a team.");
    const auto patch_personal =
        http_json("PATCH", account_url("solo"), {{"defaultUserLevel", "member"}}, solo);
    CHECK(patch_personal.status == 400);

    const auto unknown = http_get(account_url("no-such-account"), solo);
    CHECK(unknown.status == 404);
    CHECK(error_of(unknown) == "Account not found.");
    const auto out_of_scope = http_get(account_url("default"), solo);
    CHECK(out_of_scope.status == 401);
    const auto project_token = http_get(account_url("default"), server.project_token());
    CHECK(project_token.status == 403);
    CHECK(http_get(account_url("default")).status == 401);
}

TEST_CASE("PATCH /accounts/{slug} changes the default role: owners only, audited") {
    const std::string owner = team_with_owner("patched");
    const std::string member = join_team("patched", "patched-member", "member", "M");

    const auto changed =
        http_json("PATCH", account_url("patched"), {{"defaultUserLevel", "contributor"}}, owner);
    REQUIRE_MESSAGE(changed.status == 200, changed.body);
    CHECK(changed.json()["defaultUserLevel"] == "contributor");
    CHECK(changed.json()["slug"] == "patched");
    CHECK(http_get(account_url("patched"), member).json()["defaultUserLevel"] == "contributor");
    CHECK(audit_rows("patched", "account.defaultUserLevel") == 1);
    // The same value again changes nothing and writes no audit row.
    CHECK(http_json("PATCH", account_url("patched"), {{"defaultUserLevel", "contributor"}}, owner)
              .status == 200);
    CHECK(audit_rows("patched", "account.defaultUserLevel") == 1);

    const auto by_member =
        http_json("PATCH", account_url("patched"), {{"defaultUserLevel", "member"}}, member);
    CHECK(by_member.status == 403);
    CHECK(error_of(by_member) == "You are not an administrator of this team.");
    const auto owner_level =
        http_json("PATCH", account_url("patched"), {{"defaultUserLevel", "owner"}}, owner);
    CHECK(owner_level.status == 400);
    CHECK(first_detail(owner_level).find("defaultUserLevel") != std::string::npos);
    CHECK(http_json("PATCH", account_url("patched"), json::object(), owner).status == 400);
    CHECK(http_json("PATCH", account_url("patched"), json::array(), owner).status == 400);
    CHECK(http_json("PATCH", account_url("patched"), {{"defaultUserLevel", "member"}},
                    admin_server().project_token())
              .status == 403);
    CHECK(http_json("PATCH", account_url("nobody-here"), {{"defaultUserLevel", "member"}}, owner)
              .status == 404);
    CHECK(http_get(account_url("patched"), owner).json()["defaultUserLevel"] == "contributor");
}

TEST_CASE("GET /accounts/{slug}/members searches, filters, orders and pages") {
    const std::string owner = team_with_owner("listed");
    join_team("listed", "listed-ann", "member", "Ann");
    join_team("listed", "listed-bob", "contributor", "Bob");
    const std::string cid = join_team("listed", "listed-cid", "member", "Cid");
    join_team("listed", "listed-dora", "owner", "Dora");

    const json all = members_of("listed", owner);
    CHECK(all["pageInfo"]["total"] == 5);
    CHECK(all["pageInfo"]["page"] == 1);
    CHECK(all["pageInfo"]["perPage"] == 30);
    REQUIRE(all["results"].size() == 5);
    // Most recently added first.
    CHECK(all["results"][0]["user"]["slug"] == "listed-dora");
    CHECK(all["results"][4]["user"]["slug"] == "listed-owner");
    CHECK(all["results"][0]["level"] == "owner");
    CHECK(all["results"][0]["id"].is_string());
    CHECK(all["results"][0]["user"]["id"] != all["results"][0]["id"]);
    CHECK(all["results"][0]["user"]["name"] == "Dora");

    const json page2 = members_of("listed", owner, "?perPage=2&page=2&orderBy=name-asc");
    CHECK(page2["pageInfo"]["total"] == 5);
    REQUIRE(page2["results"].size() == 2);
    CHECK(page2["results"][0]["user"]["name"] == "Cid");
    CHECK(page2["results"][1]["user"]["name"] == "Dora");
    const json last = members_of("listed", owner, "?perPage=2&page=3&orderBy=name-desc");
    REQUIRE(last["results"].size() == 1);
    CHECK(last["results"][0]["user"]["name"] == "Ann");
    CHECK(members_of("listed", owner, "?perPage=2&page=9")["results"].empty());

    const json search = members_of("listed", owner, "?search=BO");
    REQUIRE(search["results"].size() == 1);
    CHECK(search["results"][0]["user"]["slug"] == "listed-bob");
    CHECK(members_of("listed", owner, "?search=listed-")["pageInfo"]["total"] == 5);
    CHECK(members_of("listed", owner, "?search=%25")["pageInfo"]["total"] == 0);

    const json owners = members_of("listed", owner, "?levels=owner");
    CHECK(owners["pageInfo"]["total"] == 2);
    CHECK(members_of("listed", owner, "?levels=member,%20contributor")["pageInfo"]["total"] == 3);
    CHECK(members_of("listed", owner, "?levels=contributor&search=ann")["pageInfo"]["total"] == 0);

    // A member reads the list; changing it is for owners.
    CHECK(members_of("listed", cid)["pageInfo"]["total"] == 5);

    const auto bad_levels = http_get(account_url("listed/members?levels=owner,boss"), owner);
    CHECK(bad_levels.status == 400);
    CHECK(first_detail(bad_levels).find("Invalid levels") != std::string::npos);
    CHECK(http_get(account_url("listed/members?orderBy=age"), owner).status == 400);
    CHECK(http_get(account_url("listed/members?perPage=101"), owner).status == 400);
    CHECK(http_get(account_url("listed/members?page=0"), owner).status == 400);
    CHECK(http_get(account_url("nobody-here/members"), owner).status == 404);
    CHECK(http_get(account_url("listed/members"), admin_server().project_token()).status == 403);
    CHECK(http_get(account_url("listed/members"), admin_server().personal_token()).status == 401);
}

TEST_CASE("PATCH /accounts/{slug}/members/{userId} changes a role; the last owner keeps theirs") {
    const std::string owner = team_with_owner("roles");
    const std::string eve = join_team("roles", "roles-eve", "member", "Eve");
    const std::string eve_id = member_id("roles", owner, "roles-eve");
    const std::string owner_id = member_id("roles", owner, "roles-owner");
    const std::string path = "roles/members/";

    const auto demote_last =
        http_json("PATCH", account_url(path + owner_id), {{"level", "member"}}, owner);
    CHECK(demote_last.status == 409);
    CHECK(error_of(demote_last).find("last owner") != std::string::npos);
    CHECK(level_of("roles", owner, "roles-owner") == "owner");

    const auto by_member =
        http_json("PATCH", account_url(path + eve_id), {{"level", "owner"}}, eve);
    CHECK(by_member.status == 403);
    CHECK(level_of("roles", owner, "roles-eve") == "member");

    const auto promoted =
        http_json("PATCH", account_url(path + eve_id), {{"level", "owner"}}, owner);
    REQUIRE_MESSAGE(promoted.status == 200, promoted.body);
    CHECK(promoted.json()["level"] == "owner");
    CHECK(promoted.json()["user"]["id"] == eve_id);
    CHECK(promoted.json()["user"]["slug"] == "roles-eve");
    // With two owners, one may step down; then the other is the last again.
    const auto stepped_down =
        http_json("PATCH", account_url(path + owner_id), {{"level", "contributor"}}, eve);
    REQUIRE_MESSAGE(stepped_down.status == 200, stepped_down.body);
    CHECK(level_of("roles", eve, "roles-owner") == "contributor");
    CHECK(http_json("PATCH", account_url(path + eve_id), {{"level", "member"}}, eve).status == 409);
    CHECK(audit_rows("roles", "member.role") == 2);
    // The former owner no longer administers the team.
    CHECK(http_json("PATCH", account_url(path + eve_id), {{"level", "member"}}, owner).status ==
          403);

    const auto bad_role = http_json("PATCH", account_url(path + eve_id), {{"level", "boss"}}, eve);
    CHECK(bad_role.status == 400);
    CHECK(first_detail(bad_role).find("level") != std::string::npos);
    const auto bad_id = http_json("PATCH", account_url(path + "abc"), {{"level", "member"}}, eve);
    CHECK(bad_id.status == 400);
    CHECK(error_of(bad_id) == "Invalid user account ID.");
    CHECK(http_json("PATCH", account_url(path + "999999999"), {{"level", "member"}}, eve).status ==
          404);
    // A user who exists but is not in the team.
    const std::string outsider_id = member_id("default", admin_server().personal_token(), "admin");
    const auto not_member =
        http_json("PATCH", account_url(path + outsider_id), {{"level", "member"}}, eve);
    CHECK(not_member.status == 404);
    CHECK(error_of(not_member) == "This user is not a member of the team.");
    CHECK(http_json("PATCH", account_url(path + eve_id), {{"level", "member"}},
                    admin_server().project_token())
              .status == 403);
    CHECK(
        http_json("PATCH", account_url("nobody-here/members/" + eve_id), {{"level", "member"}}, eve)
            .status == 404);
}

TEST_CASE("DELETE /accounts/{slug}/members/{userId}: never the last owner nor the last user") {
    const std::string owner = team_with_owner("removal");
    const std::string fay = join_team("removal", "removal-fay", "member", "Fay");
    join_team("removal", "removal-gus", "contributor", "Gus");
    const std::string owner_id = member_id("removal", owner, "removal-owner");
    const std::string fay_id = member_id("removal", owner, "removal-fay");
    const std::string gus_id = member_id("removal", owner, "removal-gus");
    const std::string path = "removal/members/";

    CHECK(delete_member(account_url(path + gus_id), fay).status == 403);
    CHECK(delete_member(account_url(path + gus_id), admin_server().project_token()).status == 403);
    const auto last_owner = delete_member(account_url(path + owner_id), owner);
    CHECK(last_owner.status == 409);
    CHECK(error_of(last_owner).find("last owner") != std::string::npos);
    CHECK(members_of("removal", owner)["pageInfo"]["total"] == 3);

    CHECK(delete_member(account_url(path + gus_id), owner).status == 204);
    CHECK(members_of("removal", owner)["pageInfo"]["total"] == 2);
    CHECK(delete_member(account_url(path + gus_id), owner).status == 404);
    // Removing the second-to-last member makes the one left the owner (Argos's rule).
    CHECK(delete_member(account_url(path + owner_id), owner).status == 204);
    CHECK(level_of("removal", fay, "removal-fay") == "owner");
    CHECK(audit_rows("removal", "member.remove") == 2);
    CHECK(audit_rows("removal", "member.role") == 1);
    // The removed owner's token no longer reaches the team.
    CHECK(http_get(account_url("removal"), owner).status == 401);
    const auto last_user = delete_member(account_url(path + fay_id), fay);
    CHECK(last_user.status == 403);
    CHECK(error_of(last_user) == "Can't remove the last user of a team.");
    CHECK(members_of("removal", fay)["pageInfo"]["total"] == 1);
}
