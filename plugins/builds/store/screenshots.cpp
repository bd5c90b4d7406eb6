#include "store/screenshots.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "loupe/db/row_reader.hpp"
#include "store/query.hpp"

namespace loupe::builds {
namespace {

// Rows per multi-row INSERT: few round trips, far under both databases' parameter limits.
constexpr std::size_t insert_chunk = 200;

std::string value_rows(std::size_t rows, const std::string& row) {
    std::string sql;
    for (std::size_t i = 0; i < rows; ++i) {
        sql += (i == 0 ? "" : ", ") + row;
    }
    return sql;
}

// The ids of the tests (project, build name, name), created on first sight.
std::map<std::string, int64_t> test_ids_for(soci::session& session, int64_t project_id,
                                            const std::string& build_name,
                                            const std::vector<std::string>& names) {
    const int64_t now = now_ms();
    std::map<std::string, int64_t> ids;
    for (std::size_t begin = 0; begin < names.size(); begin += insert_chunk) {
        const std::size_t end = std::min(names.size(), begin + insert_chunk);
        std::vector<QueryValue> values;
        std::string in_list;
        for (std::size_t i = begin; i < end; ++i) {
            values.insert(values.end(), {project_id, build_name, names[i], now});
            in_list += (i == begin ? "?" : ", ?");
        }
        execute(session,
                "INSERT INTO build_tests (project_id, build_name, name, created_at) VALUES " +
                    value_rows(end - begin, "(?, ?, ?, ?)") +
                    " ON CONFLICT (project_id, build_name, name) DO NOTHING",
                values);
        std::vector<QueryValue> names_bound(names.begin() + static_cast<std::ptrdiff_t>(begin),
                                            names.begin() + static_cast<std::ptrdiff_t>(end));
        Query()
            .where("project_id = ?", {project_id})
            .where("build_name = ?", {build_name})
            .where("name IN (" + in_list + ")", std::move(names_bound))
            .for_each_row(session, "id, name", "build_tests", "", [&](const soci::row& row) {
                RowReader r(row);
                ids[r.text("name")] = r.int64("id");
            });
    }
    return ids;
}

constexpr const char* screenshot_columns =
    "id, build_id, name, blob_key, content_type, base_names, parent_name, metadata, threshold, "
    "test_id, width, height";

Screenshot read_screenshot(const soci::row& row) {
    RowReader r(row);
    Screenshot s;
    s.id = r.int64("id");
    s.build_id = r.int64("build_id");
    s.name = r.text("name");
    s.key = r.text("blob_key");
    s.content_type = r.text("content_type");
    s.base_names = r.json("base_names");
    s.parent_name = r.optional_text("parent_name");
    s.metadata = r.json("metadata");
    s.threshold = r.optional_double("threshold");
    s.test_id = r.optional_int("test_id");
    s.width = r.optional_int("width");
    s.height = r.optional_int("height");
    return s;
}

}  // namespace

std::vector<Screenshot> build_screenshots(soci::session& session, int64_t build_id) {
    std::vector<Screenshot> screenshots;
    Query()
        .where("build_id = ?", {build_id})
        .for_each_row(session, screenshot_columns, "screenshots", "ORDER BY id",
                      [&](const soci::row& row) { screenshots.push_back(read_screenshot(row)); });
    return screenshots;
}

std::map<int64_t, Screenshot> screenshots_by_id(soci::session& session,
                                                const std::vector<int64_t>& ids) {
    std::map<int64_t, Screenshot> found;
    if (ids.empty()) {
        return found;
    }
    std::string placeholders;
    std::vector<QueryValue> values;
    for (auto id : ids) {
        placeholders += placeholders.empty() ? "?" : ", ?";
        values.emplace_back(id);
    }
    Query()
        .where("id IN (" + placeholders + ")", std::move(values))
        .for_each_row(session, screenshot_columns, "screenshots", "", [&](const soci::row& row) {
            auto screenshot = read_screenshot(row);
            found.emplace(screenshot.id, std::move(screenshot));
        });
    return found;
}

void set_screenshot_dimensions(soci::session& session, int64_t id, int64_t width, int64_t height) {
    session << "UPDATE screenshots SET width = :w, height = :h WHERE id = :id", soci::use(width),
        soci::use(height), soci::use(id);
}

std::map<std::string, std::string> stored_screenshot_names(soci::session& session,
                                                           int64_t build_id) {
    std::map<std::string, std::string> names;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT name, blob_key FROM screenshots WHERE build_id = :b",
         soci::use(build_id));
    for (const auto& row : rows) {
        names[row.get<std::string>(0)] = row.get<std::string>(1);
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
    const int64_t now = now_ms();
    for (std::size_t begin = 0; begin < rows.size(); begin += insert_chunk) {
        const std::size_t end = std::min(rows.size(), begin + insert_chunk);
        std::vector<QueryValue> values;
        for (std::size_t i = begin; i < end; ++i) {
            const auto& input = *rows[i].first;
            const auto& name = rows[i].second;
            values.insert(values.end(),
                          {build_id, name, input.key, input.content_type,
                           input.base_names.is_null() ? std::string() : input.base_names.dump(),
                           input.parent_name.value_or(""),
                           input.metadata.is_null() ? std::string() : input.metadata.dump(),
                           input.pw_trace_key.value_or(""), input.threshold.value_or(-1.0),
                           test_ids.at(name), now});
        }
        execute(session,
                "INSERT INTO screenshots (build_id, name, blob_key, content_type, base_names, "
                "parent_name, metadata, pw_trace_key, threshold, test_id, created_at) VALUES " +
                    value_rows(end - begin,
                               "(?, ?, ?, ?, NULLIF(?, ''), NULLIF(?, ''), NULLIF(?, ''), "
                               "NULLIF(?, ''), NULLIF(?, CAST(-1 AS DOUBLE PRECISION)), ?, ?)"),
                values);
    }
    return static_cast<int>(rows.size());
}

}  // namespace loupe::builds
