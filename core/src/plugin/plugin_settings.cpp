#include "plugin/plugin_settings.hpp"

#include "loupe/plugin.hpp"
#include "plugin/default_plugin_path.hpp"
#include "runtime.hpp"

namespace loupe {

std::string plugin_search_path(const ConfigView& config) {
    auto directory = config.get_string("plugins.path", "");
    return directory.empty() ? default_plugin_path() : directory;
}

std::vector<std::string> enabled_plugin_names(const ConfigView& config) {
    return split_list(config.get_string("plugins.enabled", default_enabled_plugins));
}

}  // namespace loupe
