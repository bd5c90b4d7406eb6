#include "store/project_tests.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "loupe/db/dialect.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::builds {
namespace {

TestRecord read_test(const soci::row& row) {
    RowReader r(row);
    return TestRecord{r.int64("id"), r.text("name"), r.text("build_name"), r.int64("created_at")};
}

DiffOccurrence read_occurrence(const soci::row& row) {
    RowReader r(row);
    return DiffOccurrence{r.int64("diff_id"), r.int64("created_at"), r.optional_text("mask_key"),
                          r.int64("build_number")};
}

// LIKE pattern matching `text` anywhere, its own % _ and \ taken literally (ESCAPE '\').
std::string contains_pattern(const std::string& text) {
    std::string pattern = "%";
    for (char c : text) {
        if (c == '%' || c == '_' || c == '\\') {
            pattern += '\\';
        }
        pattern += c;
    }
    return pattern + "%";
}

std::optional<DiffOccurrence> one_change(soci::session& session, int64_t test_id,
                                         const char* order) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string("SELECT d.id AS diff_id, d.created_at AS created_at, "
                                        "d.mask_key AS mask_key, b.number AS build_number FROM "
                                        "screenshot_diffs d JOIN builds b ON b.id = d.build_id "
                                        "WHERE d.test_id = :test AND d.mask_key IS NOT NULL "
                                        "ORDER BY d.id ") +
                                order + " LIMIT 1",
         soci::use(test_id, "test"));
    auto row = rows.begin();
    return row == rows.end() ? std::nullopt : std::optional<DiffOccurrence>(read_occurrence(*row));
}

}  // namespace

std::vector<int64_t> latest_reference_builds(soci::session& session, int64_t project_id) {
    // One pass over the project's reference builds grouped by name, then the builds at each
    // name's latest time; equal times keep the higher id.
    std::map<std::string, int64_t> latest_by_name;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT b.id AS id, b.name AS name FROM builds b JOIN (SELECT name, "
                            "MAX(created_at) AS latest FROM builds WHERE project_id = :project "
                            "AND type = 'reference' GROUP BY name) l ON l.name = b.name AND "
                            "b.created_at = l.latest WHERE b.project_id = :same_project AND "
                            "b.type = 'reference'",
         soci::use(project_id, "project"), soci::use(project_id, "same_project"));
    for (const auto& row : rows) {
        RowReader r(row);
        auto& id = latest_by_name[r.text("name")];
        id = std::max(id, r.int64("id"));
    }
    std::vector<int64_t> ids;
    ids.reserve(latest_by_name.size());
    for (const auto& [name, id] : latest_by_name) {
        ids.push_back(id);
    }
    return ids;
}

std::vector<TestRecord> tests_in_builds(soci::session& session, int64_t project_id,
                                        const std::vector<int64_t>& latest_builds,
                                        const TestFilters& filters) {
    std::vector<TestRecord> tests;
    if (latest_builds.empty()) {
        return tests;
    }
    const std::string builds = Json(latest_builds).dump();
    const int has_build_name = filters.build_name ? 1 : 0;
    const std::string build_name = filters.build_name.value_or("");
    const int has_search = filters.search ? 1 : 0;
    const std::string pattern = contains_pattern(to_lower(filters.search.value_or("")));
    soci::rowset<soci::row> rows =
        (session.prepare << render_sql(
             dialect_of(session),
             "SELECT t.id AS id, t.name AS name, t.build_name AS build_name, t.created_at AS "
             "created_at FROM build_tests t WHERE t.project_id = :project AND t.id IN (SELECT "
             "d.test_id FROM screenshot_diffs d JOIN screenshots s ON s.id = d.head_screenshot_id "
             "WHERE d.build_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:builds}}) AND "
             "d.test_id IS NOT NULL AND s.parent_name IS NULL) AND (:has_build_name = 0 OR "
             "t.build_name = :build_name) AND (:has_search = 0 OR LOWER(t.name) LIKE :pattern "
             "ESCAPE '\\')"),
         soci::use(project_id, "project"), soci::use(builds, "builds"),
         soci::use(has_build_name, "has_build_name"), soci::use(build_name, "build_name"),
         soci::use(has_search, "has_search"), soci::use(pattern, "pattern"));
    for (const auto& row : rows) {
        tests.push_back(read_test(row));
    }
    return tests;
}

std::optional<TestRecord> find_project_test(soci::session& session, int64_t project_id,
                                            int64_t test_id) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, name, build_name, created_at FROM build_tests WHERE id = "
                            ":test AND project_id = :project",
         soci::use(test_id, "test"), soci::use(project_id, "project"));
    auto row = rows.begin();
    return row == rows.end() ? std::nullopt : std::optional<TestRecord>(read_test(*row));
}

bool test_has_diff_in(soci::session& session, int64_t test_id,
                      const std::vector<int64_t>& latest_builds) {
    if (latest_builds.empty()) {
        return false;
    }
    const std::string builds = Json(latest_builds).dump();
    int found = 0;
    session << render_sql(dialect_of(session),
                          "SELECT COUNT(*) FROM (SELECT 1 FROM screenshot_diffs WHERE test_id = "
                          ":test AND build_id IN (SELECT CAST(value AS BIGINT) FROM "
                          "{{json_rows:builds}}) LIMIT 1) AS hit"),
        soci::use(test_id, "test"), soci::use(builds, "builds"), soci::into(found);
    return found > 0;
}

FirstAndLast first_and_last_change(soci::session& session, int64_t test_id) {
    return FirstAndLast{one_change(session, test_id, "ASC"), one_change(session, test_id, "DESC")};
}

std::vector<SeriesDiff> reference_diffs_between(soci::session& session, int64_t test_id,
                                                int64_t from_ms, int64_t to_ms) {
    std::vector<SeriesDiff> diffs;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT d.created_at AS created_at, CASE WHEN d.score > 0 THEN 1 "
                            "ELSE 0 END AS changed, CASE WHEN d.score > 0 AND NOT EXISTS (SELECT "
                            "1 FROM screenshot_diffs o JOIN builds ob ON ob.id = o.build_id WHERE "
                            "o.test_id = d.test_id AND o.mask_key = d.mask_key AND o.build_id <> "
                            "d.build_id AND ob.type = 'reference') THEN 1 ELSE 0 END AS once FROM "
                            "screenshot_diffs d JOIN builds b ON b.id = d.build_id WHERE "
                            "d.test_id = :test AND b.type = 'reference' AND d.created_at >= "
                            ":from AND d.created_at < :to",
         soci::use(test_id, "test"), soci::use(from_ms, "from"), soci::use(to_ms, "to"));
    for (const auto& row : rows) {
        RowReader r(row);
        diffs.push_back({r.int64("created_at"), r.int64("changed") != 0, r.int64("once") != 0});
    }
    return diffs;
}

std::map<std::string, ChangeSightings> changes_since(soci::session& session, int64_t test_id,
                                                     int64_t from_ms) {
    std::map<std::string, ChangeSightings> changes;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT d.fingerprint AS fingerprint, d.id AS diff_id, d.created_at "
                            "AS created_at, d.mask_key AS mask_key, b.number AS build_number FROM "
                            "screenshot_diffs d JOIN builds b ON b.id = d.build_id WHERE "
                            "d.test_id = :test AND d.score > 0 AND d.fingerprint IS NOT NULL AND "
                            "b.type = 'reference' AND b.created_at >= :from ORDER BY "
                            "d.created_at, d.id",
         soci::use(test_id, "test"), soci::use(from_ms, "from"));
    for (const auto& row : rows) {
        const auto occurrence = read_occurrence(row);
        const std::string fingerprint = RowReader(row).text("fingerprint");
        auto [it, inserted] = changes.try_emplace(fingerprint, ChangeSightings{occurrence, {}});
        it->second.last = occurrence;
    }
    return changes;
}

IgnoredChangesPage ignored_changes_page(soci::session& session, int64_t project_id, int64_t offset,
                                        int64_t limit) {
    IgnoredChangesPage page;
    long long total = 0;
    session << "SELECT COUNT(*) FROM ignored_changes WHERE project_id = :project",
        soci::use(project_id, "project"), soci::into(total);
    page.total = total;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT test_id, fingerprint FROM ignored_changes WHERE project_id = "
                            ":project ORDER BY created_at DESC, test_id DESC, fingerprint DESC "
                            "LIMIT :limit OFFSET :offset",
         soci::use(project_id, "project"), soci::use(limit, "limit"), soci::use(offset, "offset"));
    for (const auto& row : rows) {
        RowReader r(row);
        page.changes.push_back({r.int64("test_id"), r.text("fingerprint")});
    }
    return page;
}

}  // namespace loupe::builds
