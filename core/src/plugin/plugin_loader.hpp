#pragma once
// Finds, opens and checks plugin files (name, API version and build id; README "Plugins").
// dlopen with
// RTLD_NOW | RTLD_LOCAL; a plugin is never dlclose'd, whether it loaded or was refused after
// dlopen succeeded (so sanitizer reports keep naming its frames).

#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/plugin.hpp"

namespace loupe {

class LOUPE_API PluginLoadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct LoadedPlugin {
    std::string path;
    std::string name;
    std::string version;
    std::vector<std::string> requires_names;
    const loupe_plugin_descriptor* descriptor = nullptr;
};

/// Opens one file and checks, in order: the `loupe_plugin` symbol, the descriptor `size`,
/// `api_version`, `build_id`. Throws PluginLoadError naming the file, the field and both values.
LOUPE_API LoadedPlugin open_plugin(const std::string& path,
                                   const std::string& expected_build_id = LOUPE_BUILD_ID);

/// `<folder>/<name>.so` for each enabled name, from the first folder of `search_path` (folders
/// separated by ':') that holds it; duplicates in the list are refused.
LOUPE_API std::vector<LoadedPlugin> open_enabled_plugins(const std::string& search_path,
                                                         const std::vector<std::string>& enabled);

/// Checks the plugin graph (duplicate names, missing requirements, cycles) and returns the
/// plugins sorted so that every plugin comes after those it requires.
LOUPE_API std::vector<LoadedPlugin> order_plugins(std::vector<LoadedPlugin> plugins);

}  // namespace loupe
