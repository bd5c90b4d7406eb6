#pragma once
// `loupe admin deployments prune|settings|link ...`.

#include "plugin_context.hpp"

namespace loupe::deployments {

void add_admin_command(PluginContext& context);

}  // namespace loupe::deployments
