#pragma once
// A plugin's per-project settings, stored in its own table: one row per project that changed a
// setting, keyed by `project_id` (a project without a row has the defaults of `Settings{}`),
// one column per setting. One NULL convention for every plugin: a column is NULL exactly when
// its std::optional member is unset ("not set: the default applies"); members that are not
// optional are NOT NULL columns. Values are always bound parameters.
//
//     struct GreetingSettings { bool enabled = true; std::optional<std::string> salutation; };
//     const ProjectSettingsTable<GreetingSettings> table(
//         "hello_settings", {setting_column("enabled", &GreetingSettings::enabled),
//                            setting_column("salutation", &GreetingSettings::salutation)});
//     auto settings = table.read(sql, project_id);   // in the caller's transaction
//     settings.salutation = "Hi";
//     table.write(sql, project_id, settings);        // insert or update

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "loupe/export.hpp"

namespace soci {
class session;
}

namespace loupe {

/// A stored setting: NULL (std::monostate), text, an integer or a flag (INTEGER 0/1).
using SettingValue = std::variant<std::monostate, std::string, int64_t, bool>;
enum class SettingType { text, integer, flag };

/// A settings table as SQL sees it: names of the plugin's own choosing (letters, digits and
/// '_'; std::invalid_argument otherwise), never user input.
struct SettingsTableShape {
    std::string table;
    std::vector<std::pair<std::string, SettingType>> columns;
    bool has_updated_at = false;  ///< an `updated_at` BIGINT column set on every write
};

/// The stored values of each project in `project_ids` that has a row, in column order.
LOUPE_API std::map<int64_t, std::vector<SettingValue>> read_setting_rows(
    soci::session& session, const SettingsTableShape& shape,
    const std::vector<int64_t>& project_ids);
/// Inserts or replaces the row of `project_id` (`values` in column order).
LOUPE_API void write_setting_row(soci::session& session, const SettingsTableShape& shape,
                                 int64_t project_id, const std::vector<SettingValue>& values);

/// One column bound to a member of the plugin's settings struct.
template <typename Settings>
struct SettingColumn {
    std::string name;
    SettingType type = SettingType::text;
    std::function<SettingValue(const Settings&)> get;
    std::function<void(Settings&, const SettingValue&)> set;
};

/// The column `name` for `member`: std::string, int64_t, bool, or an optional of one of them.
template <typename Settings, typename Member>
SettingColumn<Settings> setting_column(std::string name, Member Settings::*member) {
    using Stored = std::conditional_t<
        std::is_same_v<Member, std::optional<std::string>>, std::string,
        std::conditional_t<
            std::is_same_v<Member, std::optional<int64_t>>, int64_t,
            std::conditional_t<std::is_same_v<Member, std::optional<bool>>, bool, Member>>>;
    static_assert(std::is_same_v<Stored, std::string> || std::is_same_v<Stored, int64_t> ||
                      std::is_same_v<Stored, bool>,
                  "a setting is a std::string, int64_t or bool, optional or not");
    constexpr bool optional = !std::is_same_v<Stored, Member>;
    SettingColumn<Settings> column;
    column.name = std::move(name);
    column.type = std::is_same_v<Stored, std::string> ? SettingType::text
                  : std::is_same_v<Stored, int64_t>   ? SettingType::integer
                                                      : SettingType::flag;
    column.get = [member](const Settings& settings) -> SettingValue {
        if constexpr (optional) {
            const auto& value = settings.*member;
            return value ? SettingValue(*value) : SettingValue();
        } else {
            return SettingValue(settings.*member);
        }
    };
    column.set = [member](Settings& settings, const SettingValue& value) {
        if constexpr (optional) {
            settings.*member =
                std::holds_alternative<Stored>(value) ? Member(std::get<Stored>(value)) : Member();
        } else if (std::holds_alternative<Stored>(value)) {
            settings.*member = std::get<Stored>(value);
        }
    };
    return column;
}

template <typename Settings>
class ProjectSettingsTable {
public:
    ProjectSettingsTable(std::string table, std::vector<SettingColumn<Settings>> columns,
                         bool has_updated_at = false)
        : columns_(std::move(columns)) {
        shape_.table = std::move(table);
        shape_.has_updated_at = has_updated_at;
        for (const auto& column : columns_) {
            shape_.columns.emplace_back(column.name, column.type);
        }
    }

    /// The project's settings (the defaults when it has no row).
    Settings read(soci::session& session, int64_t project_id) const {
        return read(session, std::vector<int64_t>{project_id}).at(project_id);
    }
    /// The settings of several projects in one statement (every id present).
    std::map<int64_t, Settings> read(soci::session& session,
                                     const std::vector<int64_t>& project_ids) const {
        std::map<int64_t, Settings> settings;
        for (const auto id : project_ids) {
            settings.emplace(id, Settings{});
        }
        for (const auto& [id, values] : read_setting_rows(session, shape_, project_ids)) {
            auto& target = settings[id];
            for (std::size_t i = 0; i < columns_.size(); ++i) {
                columns_[i].set(target, values[i]);
            }
        }
        return settings;
    }
    /// Stores the project's settings (insert or update), in the caller's transaction.
    void write(soci::session& session, int64_t project_id, const Settings& settings) const {
        std::vector<SettingValue> values;
        values.reserve(columns_.size());
        for (const auto& column : columns_) {
            values.push_back(column.get(settings));
        }
        write_setting_row(session, shape_, project_id, values);
    }

private:
    std::vector<SettingColumn<Settings>> columns_;
    SettingsTableShape shape_;
};

}  // namespace loupe
