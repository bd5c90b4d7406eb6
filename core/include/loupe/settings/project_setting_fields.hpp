#pragma once
// How a plugin shows its per-project settings in the Project resource, and lets a
// `PATCH /projects/{owner}/{project}` change them: one declaration per field, registered with
// add_project_setting_fields() during install(). The Project resource then reads the plugin's
// table once per batch of projects; a PATCH of a changeable field reads the project's row,
// applies the change and writes it back, all in the route's transaction.
//
//     add_project_setting_fields(host.project_fields(), table, {
//         {.name = "greetingSalutation",
//          .show = [](const GreetingSettings& s, const Project&) {
//              return s.salutation ? Json(*s.salutation) : Json(nullptr); },
//          .change = [](GreetingSettings& s, const Json& value, const Project&) {
//              s.salutation = optional_text_setting("greetingSalutation", value, 100); }},
//     });

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/project_fields.hpp"
#include "loupe/export.hpp"
#include "loupe/json.hpp"
#include "loupe/settings/project_settings.hpp"

namespace loupe {

template <typename Settings>
struct ProjectSettingField {
    std::string name{};  ///< in the Project resource, e.g. "autoApprovedBranchGlob"
    /// The field's value in the resource.
    std::function<Json(const Settings&, const Project&)> show{};
    /// Applies a PATCH's value to `settings`, or throws HttpError 400 naming the field (the
    /// helpers below do). Unset: the field cannot be changed.
    std::function<void(Settings&, const Json& value, const Project&)> change{};
};

/// Registers the writer of `fields` and a setter for each changeable one.
template <typename Settings>
void add_project_setting_fields(ProjectFields& registry,
                                std::shared_ptr<const ProjectSettingsTable<Settings>> table,
                                std::vector<ProjectSettingField<Settings>> fields) {
    auto shared =
        std::make_shared<const std::vector<ProjectSettingField<Settings>>>(std::move(fields));
    registry.add([table, shared](soci::session& session, const std::vector<Project>& projects,
                                 std::vector<Json>& resources) {
        std::vector<int64_t> ids;
        ids.reserve(projects.size());
        for (const auto& project : projects) {
            ids.push_back(project.id);
        }
        const auto settings = table->read(session, ids);
        for (std::size_t i = 0; i < projects.size(); ++i) {
            for (const auto& field : *shared) {
                resources[i][field.name] = field.show(settings.at(projects[i].id), projects[i]);
            }
        }
    });
    for (const auto& field : *shared) {
        if (!field.change) {
            continue;
        }
        registry.add_setter(
            field.name, [table, change = field.change](soci::session& session,
                                                       const Project& project, const Json& value) {
                Settings settings = table->read(session, project.id);
                change(settings, value, project);
                table->write(session, project.id, settings);
            });
    }
}

// Checks of a PATCH value for the common kinds of setting; each throws HttpError 400 with the
// field named in the Argos (zod) wording.

/// A boolean.
LOUPE_API bool flag_setting(const std::string& field, const Json& value);
/// A string of 1 to `max_length` characters, or null (unset: the default applies).
LOUPE_API std::optional<std::string> optional_text_setting(const std::string& field,
                                                           const Json& value,
                                                           std::size_t max_length);
/// One of `choices`.
LOUPE_API std::string choice_setting(const std::string& field, const Json& value,
                                     const std::vector<std::string>& choices);
/// A whole number in [min, max].
LOUPE_API int64_t integer_setting(const std::string& field, const Json& value, int64_t min,
                                  int64_t max);

}  // namespace loupe
