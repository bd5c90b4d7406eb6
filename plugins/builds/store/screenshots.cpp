#include "store/screenshots.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "loupe/db/dialect.hpp"
#include "loupe/db/query.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"

namespace loupe::builds {
namespace {

// The ids of the tests (project, build name, name), created on first sight. One statement each
// way whatever the count: the names travel as one bound JSON array.
std::map<std::string, int64_t> test_ids_for(soci::session& session, int64_t project_id,
                                            const std::string& build_name,
                                            const std::vector<std::string>& names) {
    std::map<std::string, int64_t> ids;
    if (names.empty()) {
        return ids;
    }
    const auto dialect = dialect_of(session);
    const int64_t now = now_ms();
    Json rows = Json::array();
    for (const auto& name : names) {
        rows.push_back({{"name", name}});
    }
    const std::string rows_text = rows.dump();
    session << render_sql(dialect,
                          "INSERT INTO build_tests (project_id, build_name, name, created_at) "
                          "SELECT :project, :build_name, value ->> 'name', :now "
                          "FROM {{json_rows:rows}} WHERE 1 = 1 "
                          "ON CONFLICT (project_id, build_name, name) DO NOTHING"),
        soci::use(project_id, "project"), soci::use(build_name, "build_name"),
        soci::use(now, "now"), soci::use(rows_text, "rows");
    soci::rowset<soci::row> found =
        (session.prepare << render_sql(dialect,
                                       "SELECT id, name FROM build_tests WHERE project_id = "
                                       ":project AND build_name = :build_name AND name IN "
                                       "(SELECT value ->> 'name' FROM {{json_rows:rows}})"),
         soci::use(project_id, "project"), soci::use(build_name, "build_name"),
         soci::use(rows_text, "rows"));
    for (const auto& row : found) {
        RowReader r(row);
        ids[r.text("name")] = r.int64("id");
    }
    return ids;
}

std::string screenshot_columns(ScreenshotFields fields) {
    return std::string("id, build_id, name, blob_key, content_type, base_names, parent_name, ") +
           (fields == ScreenshotFields::all ? "metadata, " : "") +
           "threshold, test_id, width, height, pw_trace_key";
}

Screenshot read_screenshot(const soci::row& row, ScreenshotFields fields) {
    RowReader r(row);
    Screenshot s;
    s.id = r.int64("id");
    s.build_id = r.int64("build_id");
    s.name = r.text("name");
    s.key = r.text("blob_key");
    s.content_type = r.text("content_type");
    s.base_names = r.json("base_names");
    s.parent_name = r.optional_text("parent_name");
    if (fields == ScreenshotFields::all) {
        s.metadata = r.json("metadata");
    }
    s.threshold = r.optional_double("threshold");
    s.test_id = r.optional_int("test_id");
    s.width = r.optional_int("width");
    s.height = r.optional_int("height");
    s.pw_trace_key = r.optional_text("pw_trace_key");
    return s;
}

}  // namespace

bool is_image_content_type(const std::string& content_type) {
    return content_type == "image/png" || content_type == "image/jpeg";
}

std::vector<Screenshot> build_screenshots(soci::session& session, int64_t build_id,
                                          ScreenshotFields fields) {
    std::vector<Screenshot> screenshots;
    Query()
        .where("build_id = ?", {build_id})
        .for_each_row(
            session, screenshot_columns(fields), "screenshots", "ORDER BY id",
            [&](const soci::row& row) { screenshots.push_back(read_screenshot(row, fields)); });
    return screenshots;
}

std::map<int64_t, Screenshot> screenshots_by_id(soci::session& session,
                                                const std::vector<int64_t>& ids,
                                                ScreenshotFields fields) {
    std::map<int64_t, Screenshot> found;
    for_each_row_of_ids(session,
                        "SELECT " + screenshot_columns(fields) +
                            " FROM screenshots WHERE id IN (SELECT CAST(value AS BIGINT) FROM "
                            "{{json_rows:ids}})",
                        ids, [&](const soci::row& row) {
                            auto screenshot = read_screenshot(row, fields);
                            found.emplace(screenshot.id, std::move(screenshot));
                        });
    return found;
}

void set_screenshot_dimensions(soci::session& session, int64_t id, int64_t width, int64_t height) {
    session << "UPDATE screenshots SET width = :w, height = :h WHERE id = :id", soci::use(width),
        soci::use(height), soci::use(id);
}

void set_screenshot_dimensions(soci::session& session, const std::vector<Screenshot>& sized) {
    Json rows = Json::array();
    for (const auto& screenshot : sized) {
        if (screenshot.width && screenshot.height) {
            rows.push_back({{"id", screenshot.id},
                            {"width", *screenshot.width},
                            {"height", *screenshot.height}});
        }
    }
    if (rows.empty()) {
        return;
    }
    const std::string rows_text = rows.dump();
    session << render_sql(dialect_of(session),
                          "UPDATE screenshots SET width = CAST(value ->> 'width' AS BIGINT), "
                          "height = CAST(value ->> 'height' AS BIGINT) FROM {{json_rows:rows}} "
                          "WHERE screenshots.id = CAST(value ->> 'id' AS BIGINT)"),
        soci::use(rows_text, "rows");
}

std::vector<StoredFile> files_without_dimensions(soci::session& session, int64_t build_id) {
    std::vector<StoredFile> files;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT DISTINCT blob_key, content_type FROM screenshots WHERE "
                            "build_id = :b AND (width IS NULL OR height IS NULL)",
         soci::use(build_id));
    for (const auto& row : rows) {
        RowReader r(row);
        files.push_back({r.text("blob_key"), r.text("content_type")});
    }
    return files;
}

std::map<std::string, std::string> stored_screenshot_names(soci::session& session,
                                                           int64_t build_id) {
    std::map<std::string, std::string> names;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT name, blob_key FROM screenshots WHERE build_id = :b",
         soci::use(build_id));
    for (const auto& row : rows) {
        RowReader r(row);
        names[r.text("name")] = r.text("blob_key");
    }
    return names;
}

int insert_screenshots(soci::session& session, int64_t project_id, int64_t build_id,
                       const std::string& build_name, const std::vector<ScreenshotInput>& inputs) {
    auto taken = stored_screenshot_names(session, build_id);
    std::vector<std::pair<const ScreenshotInput*, std::string>> rows;
    for (const auto& input : inputs) {
        std::string name = input.name;
        if (auto it = taken.find(name); it != taken.end()) {
            if (it->second == input.key) {
                continue;
            }
            for (int suffix = 1;; ++suffix) {
                name = input.name + "-" + std::to_string(suffix);
                auto clash = taken.find(name);
                if (clash == taken.end()) {
                    break;
                }
                if (clash->second == input.key) {
                    name.clear();
                    break;
                }
            }
            if (name.empty()) {
                continue;
            }
        }
        taken[name] = input.key;
        rows.emplace_back(&input, name);
    }
    std::vector<std::string> names;
    for (const auto& row : rows) {
        names.push_back(row.second);
    }
    const auto test_ids = test_ids_for(session, project_id, build_name, names);
    if (rows.empty()) {
        return 0;
    }
    const int64_t now = now_ms();
    Json values = Json::array();
    for (const auto& [input, name] : rows) {
        Json row = {{"name", name},
                    {"key", input->key},
                    {"content_type", input->content_type},
                    {"test_id", test_ids.at(name)}};
        if (!input->base_names.is_null()) {
            row["base_names"] = input->base_names.dump();
        }
        if (input->parent_name) {
            row["parent_name"] = *input->parent_name;
        }
        if (!input->metadata.is_null()) {
            row["metadata"] = input->metadata.dump();
        }
        if (input->pw_trace_key) {
            row["pw_trace_key"] = *input->pw_trace_key;
        }
        if (input->threshold) {
            row["threshold"] = *input->threshold;
        }
        values.push_back(std::move(row));
    }
    const std::string values_text = values.dump();
    // One statement for the whole batch: SQLite looks named parameters up by a linear scan, so
    // multi-row VALUES lists with thousands of them cost quadratic time.
    session << render_sql(
        dialect_of(session),
        "INSERT INTO screenshots (build_id, name, blob_key, content_type, base_names, "
        "parent_name, metadata, pw_trace_key, threshold, test_id, created_at) "
        "SELECT :build, value ->> 'name', value ->> 'key', value ->> 'content_type', "
        "value ->> 'base_names', value ->> 'parent_name', value ->> 'metadata', "
        "value ->> 'pw_trace_key', CAST(value ->> 'threshold' AS DOUBLE PRECISION), "
        "CAST(value ->> 'test_id' AS BIGINT), :now FROM {{json_rows:rows}} "
        "ORDER BY position"),
        soci::use(build_id, "build"), soci::use(now, "now"), soci::use(values_text, "rows");
    return static_cast<int>(rows.size());
}

int64_t count_build_screenshots(soci::session& session, int64_t build_id) {
    int64_t count = 0;
    session << "SELECT COUNT(*) FROM screenshots WHERE build_id = :id", soci::use(build_id),
        soci::into(count);
    return count;
}

}  // namespace loupe::builds
