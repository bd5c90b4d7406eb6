#pragma once
// Per-project settings belong to the plugin that reads them (the auto-approve glob to builds,
// the production-branch glob to deployments, ...), each in the plugin's own table. The Project
// resource shows them through writers the plugins register during install(): a writer adds its
// fields to every project of a batch, reading its table once for the whole batch.

#include <functional>
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

class LOUPE_API ProjectFields {
public:
    virtual ~ProjectFields();
    virtual void add(ProjectFieldsWriter writer) = 0;  ///< install() only
};

}  // namespace loupe
