// Masks drawn on a test, on a real server (SQLite or PostgreSQL): GET/POST/DELETE
// …/tests/{testId}/masks with their refusals, and what they do to diffs: a change inside a mask
// in force makes no change (the build concludes no-changes), a mask of another branch or a
// removed one masks nothing, and a diff computed before a mask is not rewritten.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "processing_client.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

/// A reference build on main with `page`, and the test it makes.
struct MaskedProject {
    InProcessServer server;
    std::string test_id;
    std::string masks;

    MaskedProject() {
        const json reference = wait_concluded(
            server,
            number_of(push_shots(server, {{"page", png_blob("page")}}, body(sha('a'), "main"))));
        test_id = list_diffs(server, number_of(reference))["results"][0]["test"]["id"];
        masks = server.base_url() + "/v2/projects/default/default/tests/" + test_id + "/masks";
    }
    /// A build of `branch` whose `page` has a magenta block at `paint`.
    json painted_build(char commit, const std::string& branch, Paint paint) {
        return wait_concluded(
            server,
            number_of(push_shots(server, {{"page", png_blob("page", paint)}},
                                 body(sha(commit), branch, {{"referenceCommit", sha('a')}}))));
    }
    json mask(const json& fields) {
        auto result = http_json("POST", masks, fields, server.personal_token());
        REQUIRE_MESSAGE(result.status == 201, result.body);
        return result.json();
    }
};

constexpr Paint clock_area{40, 4, 16, 8};  // a clock in the top-right corner

}  // namespace

TEST_CASE(
    "masks: a change inside a mask in force makes no change; the build concludes no-changes") {
    MaskedProject f;
    CHECK(f.painted_build('b', "feature", clock_area)["status"] == "changes-detected");
    const json mask =
        f.mask({{"x", 38}, {"y", 2}, {"width", 20}, {"height", 12}, {"note", "the clock_area"}});
    CHECK(mask["note"] == "the clock_area");
    CHECK(mask["branch"].is_null());
    CHECK(mask["createdBy"]["slug"].is_string());
    CHECK(mask["removedAt"].is_null());

    const json masked = f.painted_build('c', "feature", clock_area);
    CHECK(masked["status"] == "no-changes");
    const json diff = list_diffs(f.server, number_of(masked))["results"][0];
    CHECK(diff["status"] == "unchanged");
    CHECK(diff["score"] == 0);
    // A change outside the mask still counts.
    CHECK(f.painted_build('d', "feature", Paint{4, 30, 10, 10})["status"] == "changes-detected");

    // Removed, it masks nothing again; the build computed under it keeps its verdict.
    auto removed = http_json("DELETE", f.masks + "/" + mask["id"].get<std::string>(), nullptr,
                             f.server.personal_token());
    REQUIRE_MESSAGE(removed.status == 200, removed.body);
    CHECK(removed.json()["removedAt"].is_string());
    CHECK(f.painted_build('e', "feature", clock_area)["status"] == "changes-detected");
    CHECK(get_build(f.server, number_of(masked))["status"] == "no-changes");
    // The list: none in force; with all=true the removed one, with who removed it.
    CHECK(http_get(f.masks, f.server.personal_token()).json()["masks"] == json::array());
    const json all = http_get(f.masks + "?all=true", f.server.personal_token()).json()["masks"];
    REQUIRE(all.size() == 1);
    CHECK(all[0]["removedBy"]["slug"] == mask["createdBy"]["slug"]);
}

TEST_CASE("masks: a mask of one branch masks nothing on another") {
    MaskedProject f;
    f.mask({{"x", 38}, {"y", 2}, {"width", 20}, {"height", 12}, {"branch", "release"}});
    CHECK(f.painted_build('b', "feature", clock_area)["status"] == "changes-detected");
    CHECK(f.painted_build('c', "release", clock_area)["status"] == "no-changes");
}

TEST_CASE("masks: refusals") {
    MaskedProject f;
    const auto post = [&](const json& fields, const std::string& token) {
        return http_json("POST", f.masks, fields, token);
    };
    const std::string& owner = f.server.personal_token();
    CHECK(post({{"x", -1}, {"y", 0}, {"width", 5}, {"height", 5}}, owner).status == 400);
    CHECK(post({{"x", 0}, {"y", 0}, {"width", 0}, {"height", 5}}, owner).status == 400);
    CHECK(post({{"x", 0}, {"y", 0}, {"width", 5}}, owner).status == 400);
    CHECK(post({{"x", 0}, {"y", 0}, {"width", 200000000}, {"height", 5}}, owner).status == 400);
    CHECK(post({{"x", 0}, {"y", 0}, {"width", 5}, {"height", 5}, {"note", std::string(501, 'n')}},
               owner)
              .status == 400);
    CHECK(post({{"x", 0}, {"y", 0}, {"width", 5}, {"height", 5}, {"branch", ""}}, owner).status ==
          400);
    auto bad = post({{"x", "zero"}, {"y", 0}, {"width", 5}, {"height", 5}}, owner);
    CHECK(bad.status == 400);
    CHECK(first_detail(bad).find('x') != std::string::npos);
    // Another project's test, or none: 404.
    auto unknown = http_json(
        "POST", f.server.base_url() + "/v2/projects/default/default/tests/DEFAULT-ZZZZZZ/masks",
        {{"x", 0}, {"y", 0}, {"width", 5}, {"height", 5}}, owner);
    CHECK(unknown.status == 404);
    CHECK(http_json("DELETE", f.masks + "/999", nullptr, owner).status == 404);
    CHECK(http_json("DELETE", f.masks + "/abc", nullptr, owner).status == 404);
    // CI's project token reads the masks, and draws none; a viewer reads, and draws none.
    CHECK(http_get(f.masks, f.server.project_token()).status == 200);
    CHECK(
        post({{"x", 0}, {"y", 0}, {"width", 5}, {"height", 5}}, f.server.project_token()).status ==
        401);
    const std::string viewer = member_token(f.server, "vera", "contributor");
    admin(f.server, {"project", "grant", "--project", "default/default", "--user", "vera",
                     "--level", "viewer"});
    CHECK(http_get(f.masks, viewer).status == 200);
    auto refused = post({{"x", 0}, {"y", 0}, {"width", 5}, {"height", 5}}, viewer);
    CHECK(refused.status == 403);
    CHECK(error_of(refused) == "You do not have permission to change this test's masks");
}
