// Requested reviewers of a build (`argos review reviewer list|add|remove`) on a real server:
// adding keeps standing requests, leaves out outsiders, unknown ids and the caller; removing
// ignores users not requested; reviewers only. One server for the file.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "support/admin_cli.hpp"
#include "support/server_database.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

ServerProcess& reviewers_server() {
    static ServerProcess instance(with_reviews());
    return instance;
}

std::string reviewers_url(int64_t number, const std::string& project = "default/default") {
    return reviewers_server().base_url() + "/v2/projects/" + project + "/builds/" +
           std::to_string(number) + "/reviewers";
}

/// A user of the default team with `role` (and `level` on the default project for a
/// contributor); returns {personal account id, token}.
std::pair<std::string, std::string> default_person(const std::string& slug, const std::string& role,
                                                   const std::string& level = "") {
    auto& server = reviewers_server();
    admin(server, {"user", "create", "--slug", slug, "--name", "Name " + slug});
    if (!role.empty()) {
        admin(server, {"member", "add", "--account", "default", "--user", slug, "--role", role});
    }
    if (!level.empty()) {
        admin(server, {"project", "grant", "--project", "default/default", "--user", slug,
                       "--level", level});
    }
    auto token = find_token(admin(server, {"token", "create", "--user", slug, "--account",
                                           role.empty() ? slug : "default"}),
                            "arp_");
    REQUIRE(token.size() == 40);
    auto db = open_server_database(server);
    const auto id = query_number(*db,
                                 "SELECT a.id FROM accounts a JOIN users u ON u.id = "
                                 "a.user_id WHERE u.slug = '" +
                                     slug + "'");
    return {std::to_string(id), token};
}

int64_t a_build() {
    auto& server = reviewers_server();
    static int64_t number = number_of(wait_concluded(
        server, number_of(push_shots(server, {{"r", png_blob("r")}}, body(sha('c'), "main")))));
    return number;
}

std::vector<std::string> slugs_of(const HttpResult& answer) {
    REQUIRE_MESSAGE(answer.status == 200, answer.body);
    std::vector<std::string> slugs;
    const json shown = answer.json();
    for (const auto& reviewer : shown["reviewers"]) {
        slugs.push_back(reviewer["slug"]);
    }
    return slugs;
}

HttpResult change(const std::string& method, int64_t number, const json& ids,
                  const std::string& token) {
    return http_json(method, reviewers_url(number), {{"userIds", ids}}, token);
}

}  // namespace

TEST_CASE("requested reviewers: add keeps standing requests, remove, list") {
    const int64_t build = a_build();
    const std::string owner = reviewers_server().personal_token();
    const auto [ann, ann_token] = default_person("rev-ann", "member");
    const auto [bob, bob_token] = default_person("rev-bob", "contributor", "reviewer");
    const auto [out, out_token] = default_person("rev-out", "");

    CHECK(slugs_of(http_get(reviewers_url(build), owner)).empty());
    const auto added = change("POST", build, {ann, bob, out, "999999999"}, owner);
    const std::vector<std::string> both{"rev-ann", "rev-bob"};
    CHECK_MESSAGE(slugs_of(added) == both, added.body);
    const json first = added.json()["reviewers"][0];
    CHECK(first["id"] == ann);
    CHECK(first["name"] == "Name rev-ann");
    // Adding again leaves the requests as they were; the caller is never requested.
    auto db = open_server_database(reviewers_server());
    const auto requested_at =
        query_number(*db,
                     "SELECT r.created_at FROM build_requested_reviewers r JOIN users u ON u.id = "
                     "r.user_id WHERE u.slug = 'rev-ann'");
    CHECK(slugs_of(change("POST", build, {ann, bob}, bob_token)) ==
          std::vector<std::string>{"rev-ann", "rev-bob"});
    CHECK(query_number(*db,
                       "SELECT r.created_at FROM build_requested_reviewers r JOIN users u ON "
                       "u.id = r.user_id WHERE u.slug = 'rev-ann'") == requested_at);
    CHECK(count_rows(reviewers_server(), "SELECT COUNT(*) FROM build_requested_reviewers") == 2);

    CHECK(slugs_of(http_get(reviewers_url(build), bob_token)) ==
          std::vector<std::string>{"rev-ann", "rev-bob"});
    CHECK(slugs_of(change("DELETE", build, {ann, out}, owner)) ==
          std::vector<std::string>{"rev-bob"});
    CHECK(slugs_of(change("DELETE", build, {bob}, owner)).empty());
}

TEST_CASE("requested reviewers: refusals") {
    const int64_t build = a_build();
    const std::string owner = reviewers_server().personal_token();
    const auto [viewer, viewer_token] = default_person("rev-viewer", "contributor", "viewer");
    const auto requests_before =
        count_rows(reviewers_server(), "SELECT COUNT(*) FROM build_requested_reviewers");

    CHECK(change("POST", build, json::array(), owner).status == 400);
    CHECK(http_json("POST", reviewers_url(build), json::object(), owner).status == 400);
    CHECK(change("POST", build, {7}, owner).status == 400);
    CHECK(change("POST", build, {"abc"}, owner).status == 400);
    json many = json::array();
    for (int i = 0; i < 101; ++i) {
        many.push_back(std::to_string(i + 1));
    }
    CHECK(change("POST", build, many, owner).status == 400);
    CHECK(http_get(reviewers_url(0), owner).status == 400);
    CHECK(http_get(reviewers_url(999999), owner).status == 404);
    CHECK(change("POST", 999999, {viewer}, owner).status == 404);
    CHECK(http_get(reviewers_url(build, "default/nothing"), owner).status == 404);
    CHECK(http_get(reviewers_url(build)).status == 401);

    // A viewer lists but does not request nor cancel.
    CHECK(http_get(reviewers_url(build), viewer_token).status == 200);
    const auto by_viewer = change("POST", build, {viewer}, viewer_token);
    CHECK(by_viewer.status == 403);
    CHECK(error_of(by_viewer) == "You cannot request reviewers for this build");
    CHECK(change("DELETE", build, {viewer}, viewer_token).status == 403);
    CHECK(count_rows(reviewers_server(), "SELECT COUNT(*) FROM build_requested_reviewers") ==
          requests_before);
}
