#pragma once
// Per-project settings belong to the plugin that reads them (the auto-approve glob to builds,
// the production-branch glob to deployments, ...), each in the plugin's own table. The Project
// resource shows them through writers the plugins register during install(): a writer adds its
// fields to every project of a batch, reading its table once for the whole batch. A field a
// `PATCH /projects/{owner}/{project}` may change has a setter, registered by the plugin that
// owns it: the route hands it the new value inside the route's transaction
// (Identity::change_project_field). loupe/settings/project_setting_fields.hpp registers both
// for a ProjectSettingsTable.

#include <functional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe {

/// Adds fields to `resources[i]`, the resource of `projects[i]`.
using ProjectFieldsWriter = std::function<void(
    soci::session& session, const std::vector<Project>& projects, std::vector<Json>& resources)>;

/// Checks `value`, the new value of one field of `project`'s resource, and stores it in the
/// caller's transaction; throws HttpError (400, naming the field) for a value it refuses.
using ProjectFieldSetter =
    std::function<void(soci::session& session, const Project& project, const Json& value)>;

class LOUPE_API ProjectFields {
public:
    virtual ~ProjectFields();
    virtual void add(ProjectFieldsWriter writer) = 0;  ///< install() only
    /// Makes `field` changeable; install() only. A field has one owner: a second setter for it
    /// (from any plugin) fails the install.
    virtual void add_setter(std::string field, ProjectFieldSetter setter) = 0;
};

}  // namespace loupe
