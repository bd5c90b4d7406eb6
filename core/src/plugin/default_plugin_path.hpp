#pragma once
// Where the plugins are when `plugins.path` is empty.

#include <string>

namespace loupe {

/// The installed plugin folder beside the running executable (`<bin>/../lib/loupe/plugins` as
/// the build's install layout names it) when it exists, else the build tree's `plugins/` folder:
/// an installed `loupe` and one run from its build folder both find their plugins without flags.
std::string default_plugin_path();

}  // namespace loupe
