#pragma once
// Screenshot rows of a build and the tests they belong to.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct ScreenshotInput {
    std::string key;
    std::string name;
    Json base_names;  ///< array of candidate names or null
    std::optional<std::string> parent_name;
    Json metadata;
    std::optional<std::string> pw_trace_key;
    std::optional<double> threshold;
    std::string content_type = "image/png";
};

/// name → key of the screenshots already stored for a build.
std::map<std::string, std::string> stored_screenshot_names(soci::session& session,
                                                           int64_t build_id);

/// Inserts screenshots with Argos's naming rules (reference §3.3): same name and key → skipped;
/// same name, other key → `name-1`, `name-2`, ... (first free, also within this batch). Each is
/// linked to the test (project, build name, final name), created on first sight.
/// Returns how many rows were inserted.
int insert_screenshots(soci::session& session, int64_t project_id, int64_t build_id,
                       const std::string& build_name, const std::vector<ScreenshotInput>& inputs);

}  // namespace loupe::builds
