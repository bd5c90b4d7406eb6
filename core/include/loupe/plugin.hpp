#pragma once
// The plugin entry point. A plugin is a shared library exporting one C function,
// `loupe_plugin`, that returns a pointer to a static descriptor. Write it with LOUPE_PLUGIN:
//
//   static void install(loupe::Host& host) { ... }
//   LOUPE_PLUGIN("reviews", "1.0.0", LOUPE_REQUIRES("builds"), install)
//
// The loader checks, in order: the symbol exists, `size`, `api_version`, `build_id`, then the
// plugin graph (duplicate names, missing requirements, cycles), before any install() runs.

#include <cstdint>

#include "loupe/version.hpp"

namespace loupe {
class Host;

/// What a process loads when `plugins.enabled` is set nowhere: the whole product. `git` is part
/// of it because it does nothing until an admin links a project to a repository (no outbound
/// request, no tokenless upload before that), and then needs no restart.
inline constexpr const char* default_enabled_plugins =
    "auth, builds, reviews, deployments, web, analytics, git, sso, oauth, automation, "
    "notifications, media";
}  // namespace loupe

extern "C" {
/// C layout; fields are only ever appended, never reordered.
struct loupe_plugin_descriptor {
    uint32_t size;                       ///< sizeof(loupe_plugin_descriptor) as the plugin saw it
    uint32_t api_version;                ///< LOUPE_PLUGIN_API_VERSION
    const char* build_id;                ///< LOUPE_BUILD_ID: toolchain, sanitizer, SDK hash
    const char* name;                    ///< unique plugin name, e.g. "builds"
    const char* version;                 ///< the plugin's own version
    const char* const* requires_list;    ///< null-terminated names of required plugins
    void (*install)(loupe::Host& host);  ///< registers routes, migrations, jobs, services
};
typedef const loupe_plugin_descriptor* (*loupe_plugin_entry)(void);
}

/// LOUPE_REQUIRES("builds", "auth") or LOUPE_REQUIRES() for none.
#define LOUPE_REQUIRES(...) __VA_ARGS__ __VA_OPT__(, )

#define LOUPE_PLUGIN(NAME, VERSION, REQUIRES, INSTALL)                                             \
    extern "C" __attribute__((visibility("default"))) const loupe_plugin_descriptor* loupe_plugin( \
        void) noexcept {                                                                           \
        static const char* const requires_names[] = {REQUIRES nullptr};                            \
        static const loupe_plugin_descriptor descriptor = {sizeof(loupe_plugin_descriptor),        \
                                                           LOUPE_PLUGIN_API_VERSION,               \
                                                           LOUPE_BUILD_ID,                         \
                                                           NAME,                                   \
                                                           VERSION,                                \
                                                           requires_names,                         \
                                                           INSTALL};                               \
        return &descriptor;                                                                        \
    }
