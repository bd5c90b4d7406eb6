#pragma once
// Configuration lookups. Precedence, highest first: `--set key=value`, the environment
// (`http.port` → LOUPE_HTTP_PORT: upper-case, dots and dashes become underscores), the
// properties file, then the default given here. A plugin's view is its own section
// `plugins.<name>.` (so `plugins.builds.upload_max_bytes` → key "upload_max_bytes").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API ConfigView {
public:
    virtual ~ConfigView();
    virtual std::optional<std::string> find(const std::string& key) const = 0;
    /// The keys starting with `prefix` that the properties file or `--set` names, sorted (keys
    /// set only in the environment cannot be listed: their names lost their dots).
    virtual std::vector<std::string> keys_with_prefix(const std::string& prefix) const;

    std::string get_string(const std::string& key, const std::string& fallback) const;
    int64_t get_int(const std::string& key, int64_t fallback) const;
    double get_double(const std::string& key, double fallback) const;
    bool get_bool(const std::string& key, bool fallback) const;
};

}  // namespace loupe
