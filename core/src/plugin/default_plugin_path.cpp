#include "plugin/default_plugin_path.hpp"

#include <filesystem>

namespace loupe {

std::string default_plugin_path() {
    namespace fs = std::filesystem;
    std::error_code error;
    const auto executable = fs::canonical("/proc/self/exe", error);
    if (!error) {
        const auto installed = executable.parent_path() / LOUPE_PLUGIN_DIR_FROM_BINDIR;
        if (fs::is_directory(installed, error)) {
            return installed.lexically_normal().string();
        }
    }
    return LOUPE_DEFAULT_PLUGIN_DIR_FALLBACK;
}

}  // namespace loupe
