#pragma once
// The process configuration: defaults file (etc/loupe.properties, Poco PropertyFileConfiguration),
// overridden by the environment (LOUPE_<KEY>), overridden by --set key=value.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/config/config_view.hpp"
#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API Config final : public ConfigView {
public:
    /// Loads `properties_path` (may be empty: built-in defaults only; a given path that does
    /// not exist throws std::runtime_error naming it). `overrides` come from --set.
    static std::unique_ptr<Config> load(const std::string& properties_path,
                                        std::map<std::string, std::string> overrides);

    std::optional<std::string> find(const std::string& key) const override;
    /// A view of keys under `prefix` (e.g. "plugins.builds."), with the same precedence.
    std::unique_ptr<ConfigView> view(const std::string& prefix) const;
    /// Every key known from the file or overrides, sorted.
    std::vector<std::string> keys() const;
    /// The environment variable that overrides `key`: http.port → LOUPE_HTTP_PORT.
    static std::string env_name(const std::string& key);

    ~Config() override;

private:
    Config();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Where etc/loupe.properties is looked up when --config is not given: ./etc/loupe.properties,
/// then <exe dir>/../etc/loupe.properties, then <exe dir>/../etc/loupe/loupe.properties (a
/// prefix install), then /etc/loupe/loupe.properties (the packages); empty if none.
LOUPE_API std::string default_config_path(const std::string& executable_path);

}  // namespace loupe
