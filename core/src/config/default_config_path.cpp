#include <filesystem>

#include "config/config.hpp"

namespace loupe {

std::string default_config_path(const std::string& executable_path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates{fs::path(".") / "etc" / "loupe.properties"};
    if (!executable_path.empty()) {
        std::error_code error;
        auto executable = fs::canonical(executable_path, error);
        if (error) {
            executable = fs::absolute(executable_path, error);
        }
        const fs::path folder = executable.parent_path();
        candidates.push_back(folder.parent_path() / "etc" / "loupe.properties");
        // A `cmake --install --prefix DIR`: DIR/bin/loupe reads DIR/etc/loupe/loupe.properties.
        candidates.push_back(
            (folder / LOUPE_SYSCONF_DIR_FROM_BINDIR / "loupe.properties").lexically_normal());
    }
    candidates.emplace_back("/etc/loupe/loupe.properties");
    for (const auto& candidate : candidates) {
        std::error_code error;
        if (fs::is_regular_file(candidate, error)) {
            return candidate.string();
        }
    }
    return {};
}

}  // namespace loupe
