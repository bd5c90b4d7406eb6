#include "standalone_command.hpp"

#include <dlfcn.h>

#include <algorithm>

#include "loupe/standalone_command.hpp"
#include "plugin/plugin_loader.hpp"
#include "plugin/plugin_settings.hpp"

namespace loupe {
namespace {

bool is_symbol_suffix(const std::string& command) {
    return !command.empty() && std::all_of(command.begin(), command.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

}  // namespace

std::optional<int> run_standalone_command(const Config& config, const std::string& command,
                                          const std::vector<std::string>& args) {
    if (!is_symbol_suffix(command)) {
        return std::nullopt;
    }
    const std::string symbol = LOUPE_STANDALONE_COMMAND_PREFIX + command;
    const std::string search_path = plugin_search_path(config);
    for (const auto& name : enabled_plugin_names(config)) {
        const LoadedPlugin plugin = open_enabled_plugins(search_path, {name}).front();
        // Already loaded by open_enabled_plugins: this only returns its handle.
        void* handle = ::dlopen(plugin.path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        const auto run =
            handle == nullptr
                ? nullptr
                : reinterpret_cast<loupe_standalone_command>(::dlsym(handle, symbol.c_str()));
        if (run != nullptr) {
            std::vector<const char*> argv;
            argv.reserve(args.size() + 1);
            for (const auto& arg : args) {
                argv.push_back(arg.c_str());
            }
            argv.push_back(nullptr);
            return run(static_cast<int>(args.size()), argv.data());
        }
    }
    return std::nullopt;
}

}  // namespace loupe
