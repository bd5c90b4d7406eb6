#include "plugin/plugin_loader.hpp"

#include <dlfcn.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace loupe {
namespace {

// The smallest descriptor this core understands: every field up to and including install.
constexpr std::size_t minimum_descriptor_size =
    offsetof(loupe_plugin_descriptor, install) + sizeof(loupe_plugin_descriptor::install);

std::string single_quoted(const std::string& text) {
    return "'" + text + "'";
}

}  // namespace

LoadedPlugin open_plugin(const std::string& path, const std::string& expected_build_id) {
    if (!std::filesystem::exists(path)) {
        throw PluginLoadError("plugin file " + path + " does not exist");
    }
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* reason = ::dlerror();
        throw PluginLoadError("cannot load plugin " + path + ": " +
                              (reason ? reason : "unknown dlopen error"));
    }
    auto entry = reinterpret_cast<loupe_plugin_entry>(::dlsym(handle, "loupe_plugin"));
    if (entry == nullptr) {
        throw PluginLoadError(path + " is not a Loupe plugin (no loupe_plugin symbol)");
    }
    const loupe_plugin_descriptor* descriptor = entry();
    if (descriptor == nullptr) {
        throw PluginLoadError(path + ": loupe_plugin() returned no descriptor");
    }
    if (descriptor->size < minimum_descriptor_size) {
        throw PluginLoadError(path + ": descriptor field 'size' is " +
                              std::to_string(descriptor->size) + ", the core needs at least " +
                              std::to_string(minimum_descriptor_size) +
                              " (descriptor too old; rebuild the plugin)");
    }
    if (descriptor->api_version != LOUPE_PLUGIN_API_VERSION) {
        throw PluginLoadError(path + ": descriptor field 'api_version' is " +
                              std::to_string(descriptor->api_version) + ", the core has " +
                              std::to_string(LOUPE_PLUGIN_API_VERSION));
    }
    std::string build_id = descriptor->build_id ? descriptor->build_id : "";
    if (build_id != expected_build_id) {
        throw PluginLoadError(path + ": descriptor field 'build_id' is " + single_quoted(build_id) +
                              ", the core has " + single_quoted(expected_build_id) +
                              " (plugin built with another toolchain, sanitizer or SDK)");
    }
    if (descriptor->name == nullptr || *descriptor->name == '\0') {
        throw PluginLoadError(path + ": descriptor field 'name' is empty");
    }
    if (descriptor->install == nullptr) {
        throw PluginLoadError(path + ": descriptor field 'install' is null");
    }
    LoadedPlugin plugin;
    plugin.path = path;
    plugin.name = descriptor->name;
    plugin.version = descriptor->version ? descriptor->version : "";
    plugin.descriptor = descriptor;
    for (auto names = descriptor->requires_list; names && *names; ++names) {
        plugin.requires_names.emplace_back(*names);
    }
    return plugin;
}

namespace {

// The first folder holding <name>.so; the first folder's path when none does, so that opening
// it reports the missing file there.
std::string find_plugin_file(const std::vector<std::string>& folders, const std::string& name) {
    for (const auto& folder : folders) {
        auto path = std::filesystem::path(folder) / (name + ".so");
        if (std::filesystem::exists(path)) {
            return path.string();
        }
    }
    return (std::filesystem::path(folders.front()) / (name + ".so")).string();
}

std::vector<std::string> split_search_path(const std::string& search_path) {
    std::vector<std::string> folders;
    std::size_t start = 0;
    while (start <= search_path.size()) {
        auto end = search_path.find(':', start);
        if (end == std::string::npos) {
            end = search_path.size();
        }
        if (end > start) {
            folders.push_back(search_path.substr(start, end - start));
        }
        start = end + 1;
    }
    if (folders.empty()) {
        folders.emplace_back(".");
    }
    return folders;
}

}  // namespace

std::vector<LoadedPlugin> open_enabled_plugins(const std::string& search_path,
                                               const std::vector<std::string>& enabled) {
    const auto folders = split_search_path(search_path);
    std::vector<LoadedPlugin> plugins;
    std::set<std::string> seen;
    for (const auto& name : enabled) {
        if (!seen.insert(name).second) {
            throw PluginLoadError("plugins.enabled lists " + single_quoted(name) + " twice");
        }
        auto path = find_plugin_file(folders, name);
        auto plugin = open_plugin(path);
        if (plugin.name != name) {
            throw PluginLoadError(path + ": descriptor field 'name' is " +
                                  single_quoted(plugin.name) + ", expected " + single_quoted(name) +
                                  " from plugins.enabled");
        }
        plugins.push_back(std::move(plugin));
    }
    return plugins;
}

std::vector<LoadedPlugin> order_plugins(std::vector<LoadedPlugin> plugins) {
    std::map<std::string, const LoadedPlugin*> by_name;
    for (const auto& plugin : plugins) {
        auto [it, inserted] = by_name.emplace(plugin.name, &plugin);
        if (!inserted) {
            throw PluginLoadError("plugin " + single_quoted(plugin.name) + " (" + plugin.path +
                                  ") is already loaded from " + it->second->path);
        }
    }
    for (const auto& plugin : plugins) {
        for (const auto& required : plugin.requires_names) {
            if (!by_name.contains(required)) {
                throw PluginLoadError("plugin " + single_quoted(plugin.name) + " (" + plugin.path +
                                      ") requires plugin " + single_quoted(required) +
                                      ", which is not enabled (add it to plugins.enabled)");
            }
        }
    }
    // Depth-first topological sort keeping the configured order where the graph allows it.
    std::vector<LoadedPlugin> ordered;
    std::map<std::string, int> state;  // 0 new, 1 visiting, 2 done
    std::vector<std::string> stack;
    std::function<void(const LoadedPlugin&)> visit = [&](const LoadedPlugin& plugin) {
        int& mark = state[plugin.name];
        if (mark == 2) {
            return;
        }
        if (mark == 1) {
            std::string cycle;
            for (const auto& name : stack) {
                cycle += name + " -> ";
            }
            throw PluginLoadError("plugin requirements form a cycle: " + cycle + plugin.name);
        }
        mark = 1;
        stack.push_back(plugin.name);
        for (const auto& required : plugin.requires_names) {
            visit(*by_name.at(required));
        }
        stack.pop_back();
        state[plugin.name] = 2;
        ordered.push_back(plugin);
    };
    for (const auto& plugin : plugins) {
        visit(plugin);
    }
    return ordered;
}

}  // namespace loupe
