// GET /accounts/{accountSlug}/analytics on a real server (SQLite or PostgreSQL): validation and
// access rules, and exact series over builds placed at chosen instants across two projects
// (week, month and leap-day edges), plus builds made and reviewed through the API.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include "loupe/json.hpp"
#include "support/admin_cli.hpp"
#include "support/in_process_server.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

struct Fixture {
    InProcessServer server{ServerOptions{{"auth", "builds", "reviews", "analytics"}, {}, {}}};
    int64_t web = 0;   // project default/default
    int64_t docs = 0;  // project default/docs
    int64_t next_number = 1000;

    Fixture() {
        admin(server, {"project", "create", "--account", "default", "--name", "docs"});
        auto db = open_server_database(server);
        web = query_number(*db, "SELECT id FROM projects WHERE name = 'default'");
        docs = query_number(*db, "SELECT id FROM projects WHERE name = 'docs'");
    }

    // A finished build row as the builds plugin writes it, created at `created_at`.
    void place_build(int64_t project_id, const std::string& created_at, int screenshots,
                     const std::string& conclusion = "", const std::string& review_state = "") {
        const auto ms = loupe::parse_iso_time(created_at);
        REQUIRE(ms);
        auto db = open_server_database(server);
        const long long number = next_number++;
        const long long created = *ms;
        const long long project = project_id;
        const std::string commit = sha('f');
        *db << "INSERT INTO builds (project_id, number, name, commit_sha, branch, mode, "
               "job_status, parallel, batch_count, partial, merge_queue, subset, complete, valid, "
               "screenshot_count, conclusion, review_state, created_at, updated_at) VALUES "
               "(:project, :number, 'default', :commit, 'main', 'ci', 'complete', 0, 1, 0, 0, 0, "
               "1, 1, :screenshots, NULLIF(:conclusion, ''), NULLIF(:review, ''), :created, "
               ":created)",
            soci::use(project, "project"), soci::use(number, "number"), soci::use(commit, "commit"),
            soci::use(screenshots, "screenshots"), soci::use(conclusion, "conclusion"),
            soci::use(review_state, "review"), soci::use(created, "created");
    }

    HttpResult get(const std::string& query, std::optional<std::string> token) const {
        return http_get(server.base_url() + "/v2/accounts/default/analytics?" + query,
                        std::move(token));
    }
    json analytics(const std::string& query) const {
        auto result = get(query, server.personal_token());
        REQUIRE_MESSAGE(result.status == 200, result.body);
        return result.json();
    }
};

Fixture& fixture() {
    static Fixture instance;
    static const bool placed = [] {
        // Before the range of every query below.
        instance.place_build(instance.web, "2023-12-31T23:59:59Z", 100, "no-changes");
        instance.place_build(instance.docs, "2024-01-28T10:00:00Z", 1, "no-changes");
        // The last second of Sunday 2024-01-28 and the first of Monday 2024-01-29.
        instance.place_build(instance.web, "2024-01-28T23:59:59Z", 3, "no-changes");
        instance.place_build(instance.web, "2024-01-29T00:00:00Z", 5, "changes-detected",
                             "accepted");
        // Either side of the month boundary.
        instance.place_build(instance.docs, "2024-01-31T23:59:59.999Z", 7, "changes-detected",
                             "rejected");
        instance.place_build(instance.docs, "2024-02-01T00:00:00Z", 2);  // not concluded
        // The leap day and the day after.
        instance.place_build(instance.web, "2024-02-29T10:00:00Z", 4, "changes-detected");
        instance.place_build(instance.web, "2024-03-01T00:00:00Z", 1, "no-changes");
        // A review state recorded on a build without changes counts as neither.
        instance.place_build(instance.docs, "2024-04-15T08:00:00Z", 6, "no-changes", "accepted");
        // After the range of every query below.
        instance.place_build(instance.docs, "2024-05-01T00:00:00Z", 100, "no-changes");
        return true;
    }();
    (void)placed;
    return instance;
}

std::string id(int64_t project_id) {
    return std::to_string(project_id);
}

json point(int64_t ts, int64_t total, json projects) {
    return {{"ts", ts}, {"total", total}, {"projects", std::move(projects)}};
}

json build_point(int64_t ts, int64_t total, json projects, int changes, int none, int accepted,
                 int rejected) {
    json out = point(ts, total, std::move(projects));
    out["changesDetected"] = changes;
    out["noChanges"] = none;
    out["accepted"] = accepted;
    out["rejected"] = rejected;
    return out;
}

constexpr int64_t jan_01 = 1704067200000;
constexpr int64_t jan_22 = 1705881600000;
constexpr int64_t jan_28 = 1706400000000;
constexpr int64_t jan_29 = 1706486400000;
constexpr int64_t feb_01 = 1706745600000;
constexpr int64_t feb_05 = 1707091200000;
constexpr int64_t feb_28 = 1709078400000;
constexpr int64_t feb_29 = 1709164800000;
constexpr int64_t mar_01 = 1709251200000;
constexpr int64_t apr_01 = 1711929600000;

}  // namespace

TEST_CASE("analytics endpoint: weekly series split Sunday 23:59:59Z from Monday 00:00:00Z") {
    auto& f = fixture();
    const auto w = id(f.web);
    const auto d = id(f.docs);
    auto body = f.analytics("from=2024-01-28T23:59:59Z&to=2024-02-05T00:00:00Z&groupBy=week");

    CHECK(body["builds"]["series"] ==
          json::array({build_point(jan_22, 2, {{w, 1}, {d, 1}}, 0, 2, 0, 0),
                       build_point(jan_29, 3, {{w, 1}, {d, 2}}, 2, 0, 1, 1),
                       build_point(feb_05, 0, {{w, 0}, {d, 0}}, 0, 0, 0, 0)}));
    CHECK(body["builds"]["all"] == json{{"total", 5},
                                        {"projects", {{w, 2}, {d, 3}}},
                                        {"changesDetected", 2},
                                        {"noChanges", 2},
                                        {"accepted", 1},
                                        {"rejected", 1}});
    CHECK(body["screenshots"]["series"] ==
          json::array({point(jan_22, 4, {{w, 3}, {d, 1}}), point(jan_29, 14, {{w, 5}, {d, 9}}),
                       point(feb_05, 0, {{w, 0}, {d, 0}})}));
    CHECK(body["screenshots"]["all"] == json{{"total", 18}, {"projects", {{w, 8}, {d, 10}}}});
    const json projects =
        json::array({{{"id", w}, {"name", "default"}}, {{"id", d}, {"name", "docs"}}});
    const json reversed = json::array({projects[1], projects[0]});
    CHECK((body["builds"]["projects"] == projects || body["builds"]["projects"] == reversed));
    CHECK(body["screenshots"]["projects"] == body["builds"]["projects"]);
}

TEST_CASE("analytics endpoint: an offset `from` counts from the start of its UTC day") {
    auto& f = fixture();
    const auto w = id(f.web);
    const auto d = id(f.docs);
    // 01:00 at +05:30 is 19:30Z the day before: the series starts on 2024-01-28 and counts the
    // build of 10:00Z that day; `to` at exactly Monday 00:00:00Z includes the build of that
    // instant.
    auto body =
        f.analytics("from=2024-01-29T01:00%2B05:30&to=2024-01-29T00:00:00.000-00:00&groupBy=day");
    CHECK(body["builds"]["series"] ==
          json::array({build_point(jan_28, 2, {{w, 1}, {d, 1}}, 0, 2, 0, 0),
                       build_point(jan_29, 1, {{w, 1}, {d, 0}}, 1, 0, 1, 0)}));
    CHECK(body["screenshots"]["all"] == json{{"total", 9}, {"projects", {{w, 8}, {d, 1}}}});
}

TEST_CASE("analytics endpoint: months across a boundary and a leap day, names filter") {
    auto& f = fixture();
    const auto w = id(f.web);
    const auto d = id(f.docs);
    auto body = f.analytics("from=2024-01-15T00:00Z&to=2024-04-30T23:59:59.999Z&groupBy=month");
    CHECK(body["builds"]["series"] ==
          json::array({build_point(jan_01, 4, {{w, 2}, {d, 2}}, 2, 2, 1, 1),
                       build_point(feb_01, 2, {{w, 1}, {d, 1}}, 1, 0, 0, 0),
                       build_point(mar_01, 1, {{w, 1}, {d, 0}}, 0, 1, 0, 0),
                       build_point(apr_01, 1, {{w, 0}, {d, 1}}, 0, 1, 0, 0)}));
    CHECK(body["screenshots"]["all"] == json{{"total", 29}, {"projects", {{w, 13}, {d, 16}}}});

    auto docs_only = f.analytics(
        "from=2024-01-15T00:00Z&to=2024-04-30T23:59:59.999Z&groupBy=month&projectNames=docs");
    CHECK(docs_only["builds"]["series"][1] == build_point(feb_01, 1, {{d, 1}}, 0, 0, 0, 0));
    CHECK(docs_only["builds"]["projects"] == json::array({{{"id", d}, {"name", "docs"}}}));
    CHECK(docs_only["screenshots"]["all"] == json{{"total", 16}, {"projects", {{d, 16}}}});
    // Repeated, the parameter names several projects; a name matching nothing adds nothing.
    auto both = f.analytics(
        "from=2024-01-15T00:00Z&to=2024-04-30T23:59:59.999Z&groupBy=month&"
        "projectNames=docs&projectNames=nope&projectNames=default");
    CHECK(both["screenshots"]["all"] == body["screenshots"]["all"]);
    auto docs_twice = f.analytics(
        "from=2024-01-15T00:00Z&to=2024-04-30T23:59:59.999Z&"
        "groupBy=month&projectNames=docs&projectNames=nope");
    CHECK(docs_twice["screenshots"]["all"] == docs_only["screenshots"]["all"]);

    auto nothing = f.analytics(
        "from=2024-01-15T00:00Z&to=2024-04-30T23:59:59.999Z&groupBy=month&projectNames=nope");
    CHECK(nothing["builds"]["series"].size() == 4);
    CHECK(nothing["builds"]["series"][0] == build_point(jan_01, 0, json::object(), 0, 0, 0, 0));
    CHECK(nothing["builds"]["all"]["total"] == 0);
    CHECK(nothing["builds"]["all"]["projects"] == json::object());
    CHECK(nothing["builds"]["projects"] == json::array());
    CHECK(nothing["screenshots"]["projects"] == json::array());

    // Leap day by day: the project without builds in the range is listed nowhere.
    auto leap = f.analytics("from=2024-02-28T12:00Z&to=2024-03-01T00:00:00Z&groupBy=day");
    CHECK(leap["builds"]["series"] == json::array({build_point(feb_28, 0, {{w, 0}}, 0, 0, 0, 0),
                                                   build_point(feb_29, 1, {{w, 1}}, 1, 0, 0, 0),
                                                   build_point(mar_01, 1, {{w, 1}}, 0, 1, 0, 0)}));
    CHECK(leap["builds"]["projects"] == json::array({{{"id", w}, {"name", "default"}}}));
}

TEST_CASE("analytics endpoint: validation before authentication, range rules, tokens") {
    auto& f = fixture();
    const auto& pat = f.server.personal_token();

    auto missing = f.get("groupBy=day", std::nullopt);
    CHECK(missing.status == 400);
    CHECK(error_of(missing) == "Invalid request");
    CHECK(first_detail(missing) == "from is Invalid input: expected string, received undefined");

    for (const char* from :
         {"2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00", "2026-01-01"}) {
        CAPTURE(from);
        auto bad = f.get(std::string("groupBy=day&from=") + from, pat);
        CHECK(bad.status == 400);
        CHECK(first_detail(bad) == "from is Invalid ISO datetime");
    }
    auto bad_group = f.get("from=2024-01-01T00:00Z&groupBy=year", pat);
    CHECK(bad_group.status == 400);
    CHECK(first_detail(bad_group) ==
          R"(groupBy is Invalid option: expected one of "day"|"week"|"month")");
    auto bad_name = f.get("from=2024-01-01T00:00Z&groupBy=day&projectNames=a%20b", pat);
    CHECK(bad_name.status == 400);
    CHECK(first_detail(bad_name) ==
          "projectNames is Project name can only contain letters, "
          "numbers, dots, hyphens and underscores.");

    auto reversed = f.get("from=2024-01-02T00:00Z&to=2024-01-01T23:59:59Z&groupBy=day", pat);
    CHECK(reversed.status == 400);
    CHECK(error_of(reversed) == "`from` must be before `to`.");
    CHECK_FALSE(reversed.json().contains("details"));
    auto too_long = f.get("from=2023-01-01T00:00Z&to=2024-01-02T00:00Z&groupBy=month", pat);
    CHECK(too_long.status == 400);
    CHECK(error_of(too_long) == "Date range cannot exceed 365 days.");
    CHECK(f.get("from=2023-01-01T00:00Z&to=2024-01-01T23:59Z&groupBy=month", pat).status == 200);
    // `to` defaults to now.
    auto recent =
        f.get("from=" + loupe::iso_time(loupe::now_ms() - 3'600'000) + "&groupBy=day", pat);
    CHECK(recent.status == 200);

    const std::string ok = "from=2024-01-01T00:00Z&groupBy=day&to=2024-01-02T00:00Z";
    auto no_token = f.get(ok, std::nullopt);
    CHECK(no_token.status == 401);
    CHECK(error_of(no_token) == "Authorization header is missing");
    auto project_token = f.get(ok, f.server.project_token());
    CHECK(project_token.status == 401);
    CHECK(error_of(project_token) ==
          "This endpoint requires a personal access token. See https://argos-ci.com/docs for "
          "details.");

    admin(f.server, {"user", "create", "--slug", "eve", "--name", "Eve"});
    const auto eve = find_token(admin(f.server, {"token", "create", "--user", "eve"}), "arp_");
    REQUIRE(eve.size() == 40);
    auto foreign = f.get(ok, eve);
    CHECK(foreign.status == 401);
    CHECK(error_of(foreign) ==
          "You do not have access to this account. Check that your "
          "personal access token is scoped to it.");
    auto own = http_get(f.server.base_url() + "/v2/accounts/eve/analytics?" + ok, eve);
    CHECK(own.status == 200);
    CHECK(own.json()["builds"]["all"]["total"] == 0);
}

TEST_CASE("analytics endpoint: only projects the caller may view are counted") {
    auto& f = fixture();
    const std::string range = "from=2024-01-15T00:00Z&to=2024-04-30T23:59:59.999Z&groupBy=month";
    // A contributor without a level on either (private) project sees nothing.
    const auto carol = member_token(f.server, "carol", "contributor");
    auto none = f.get(range, carol);
    REQUIRE_MESSAGE(none.status == 200, none.body);
    CHECK(none.json()["builds"]["all"]["total"] == 0);
    CHECK(none.json()["builds"]["projects"] == json::array());
    CHECK(f.get(range + "&projectNames=docs", carol).json()["builds"]["all"]["total"] == 0);

    // Granted a level on docs, only docs counts.
    admin(f.server, {"project", "grant", "--project", "default/docs", "--user", "carol", "--level",
                     "viewer"});
    auto docs = f.get(range, carol);
    CHECK(docs.json()["builds"]["all"] == json{{"total", 4},
                                               {"projects", {{id(f.docs), 4}}},
                                               {"changesDetected", 1},
                                               {"noChanges", 2},
                                               {"accepted", 0},
                                               {"rejected", 1}});

    // A public project may be viewed by every member of its team, even without a level.
    {
        auto db = open_server_database(f.server);
        const long long web = f.web;
        *db << "UPDATE projects SET is_private = 0 WHERE id = :id", soci::use(web, "id");
    }
    auto both = f.get(range, carol);
    CHECK(both.json()["builds"]["all"]["projects"] == json{{id(f.web), 4}, {id(f.docs), 4}});
}

TEST_CASE("analytics endpoint: builds pushed and reviewed through the API are counted") {
    auto& f = fixture();
    const Paint block{10, 8, 14, 10};
    const auto from = loupe::iso_time(loupe::now_ms() - 60'000);
    auto reference =
        wait_concluded(f.server, push_shots(f.server, {{"x", png_blob("x")}, {"y", png_blob("y")}},
                                            {{"commit", sha('a')}, {"branch", "main"}})["number"]);
    auto check = wait_concluded(
        f.server, push_shots(f.server, {{"x", png_blob("x", block)}, {"y", png_blob("y")}},
                             {{"commit", sha('b')},
                              {"branch", "feature"},
                              {"referenceCommit", sha('a')}})["number"]);
    REQUIRE(check["status"] == "changes-detected");
    auto approved = http_json("POST",
                              f.server.base_url() + "/v2/projects/default/default/builds/" +
                                  std::to_string(check["number"].get<int64_t>()) + "/reviews",
                              {{"event", "APPROVE"}}, f.server.personal_token());
    REQUIRE_MESSAGE(approved.status == 200, approved.body);

    auto body = f.analytics("from=" + from + "&groupBy=month");
    const auto w = id(f.web);
    CHECK(body["builds"]["all"]["total"] == 2);
    CHECK(body["builds"]["all"]["projects"] == json{{w, 2}});
    const int changed = reference["conclusion"] == "changes-detected" ? 2 : 1;
    CHECK(body["builds"]["all"]["changesDetected"] == changed);
    CHECK(body["builds"]["all"]["noChanges"] == 2 - changed);
    CHECK(body["builds"]["all"]["accepted"] == 1);
    CHECK(body["builds"]["all"]["rejected"] == 0);
    CHECK(body["screenshots"]["all"] == json{{"total", 4}, {"projects", {{w, 4}}}});
}
