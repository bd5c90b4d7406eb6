#pragma once
// Setters of the Project resource's fields core owns (the plugins' fields have their own).

#include <map>
#include <string>

#include "loupe/auth/project_fields.hpp"

namespace loupe {

/// name, defaultBaseBranch, private and defaultUserLevel, by field name.
const std::map<std::string, ProjectFieldSetter>& core_project_field_setters();

}  // namespace loupe
