#include "loupe/settings/project_settings.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <stdexcept>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

/// Names are spliced into the SQL text, so only plain identifiers are accepted.
const std::string& identifier(const std::string& name) {
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!plain) {
        throw std::invalid_argument("not a plain SQL identifier: \"" + name + "\"");
    }
    return name;
}

SettingValue read_value(const RowReader& row, const std::string& column, SettingType type) {
    switch (type) {
        case SettingType::text:
            if (auto text = row.optional_text(column)) {
                return *text;
            }
            return {};
        case SettingType::integer:
            if (auto number = row.optional_int(column)) {
                return *number;
            }
            return {};
        case SettingType::flag:
            if (auto number = row.optional_int(column)) {
                return *number != 0;
            }
            return {};
    }
    return {};
}

}  // namespace

std::map<int64_t, std::vector<SettingValue>> read_setting_rows(
    soci::session& session, const SettingsTableShape& shape,
    const std::vector<int64_t>& project_ids) {
    std::string columns = "project_id";
    for (const auto& [name, type] : shape.columns) {
        columns += ", " + identifier(name);
    }
    std::map<int64_t, std::vector<SettingValue>> rows;
    for_each_row_of_ids(session,
                        "SELECT " + columns + " FROM " + identifier(shape.table) +
                            " WHERE project_id IN (SELECT CAST(value AS BIGINT) FROM "
                            "{{json_rows:ids}})",
                        project_ids, [&](const soci::row& row) {
                            const RowReader reader(row);
                            auto& values = rows[reader.int64("project_id")];
                            for (const auto& [name, type] : shape.columns) {
                                values.push_back(read_value(reader, name, type));
                            }
                        });
    return rows;
}

void write_setting_row(soci::session& session, const SettingsTableShape& shape, int64_t project_id,
                       const std::vector<SettingValue>& values) {
    if (values.size() != shape.columns.size()) {
        throw std::invalid_argument("one value per column of " + shape.table);
    }
    std::string names = "project_id";
    std::string placeholders = ":project_id";
    std::string updates;
    for (const auto& [name, type] : shape.columns) {
        names += ", " + identifier(name);
        placeholders += ", :" + name;
        updates += (updates.empty() ? "" : ", ") + name + " = excluded." + name;
    }
    if (shape.has_updated_at) {
        names += ", updated_at";
        placeholders += ", :updated_at";
        updates += (updates.empty() ? "" : ", ") + std::string("updated_at = excluded.updated_at");
    }
    const std::string sql = "INSERT INTO " + identifier(shape.table) + " (" + names + ") VALUES (" +
                            placeholders + ") ON CONFLICT (project_id) DO " +
                            (updates.empty() ? "NOTHING" : "UPDATE SET " + updates);

    // Bound storage that outlives the statement: one slot per column, NULL by indicator.
    std::vector<std::string> texts(values.size());
    std::vector<long long> numbers(values.size(), 0);
    std::vector<soci::indicator> indicators(values.size(), soci::i_ok);
    const long long project = project_id;
    const long long now = now_ms();
    soci::statement statement(session);
    statement.alloc();
    statement.prepare(sql);
    statement.exchange(soci::use(project, "project_id"));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto& [name, type] = shape.columns[i];
        const SettingValue& value = values[i];
        if (std::holds_alternative<std::monostate>(value)) {
            indicators[i] = soci::i_null;
        } else if (const auto* text = std::get_if<std::string>(&value)) {
            texts[i] = *text;
        } else if (const auto* number = std::get_if<int64_t>(&value)) {
            numbers[i] = *number;
        } else {
            numbers[i] = std::get<bool>(value) ? 1 : 0;
        }
        if (type == SettingType::text) {
            statement.exchange(soci::use(texts[i], indicators[i], name));
        } else {
            statement.exchange(soci::use(numbers[i], indicators[i], name));
        }
    }
    if (shape.has_updated_at) {
        statement.exchange(soci::use(now, "updated_at"));
    }
    statement.define_and_bind();
    statement.execute(true);
}

}  // namespace loupe
