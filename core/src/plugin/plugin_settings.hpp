#pragma once
// Which plugin files a process opens: the plugins.path and plugins.enabled keys.

#include <string>
#include <vector>

#include "loupe/config/config_view.hpp"
#include "loupe/export.hpp"

namespace loupe {

/// plugins.path, or default_plugin_path() when it is empty.
LOUPE_API std::string plugin_search_path(const ConfigView& config);

/// plugins.enabled as a list of names, in the order given (default_enabled_plugins when unset).
LOUPE_API std::vector<std::string> enabled_plugin_names(const ConfigView& config);

}  // namespace loupe
