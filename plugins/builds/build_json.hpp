#pragma once
// The Build resource (reference §4.1) plus Loupe's `baselineBuild`, which says which build was
// used as the baseline and why.

#include <optional>
#include <string>

#include "build_status.hpp"
#include "loupe/auth/identity.hpp"
#include "store/build.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// `<public url>/<account>/<project>/builds/<number>`
std::string build_url(const std::string& public_url, const Project& project, int64_t number);

Json build_json(const Build& build, const Project& project, const std::string& public_url,
                const std::optional<Build>& baseline, const StatusInputs& inputs);

/// Loads what build_json needs besides the build (baseline row) and renders it.
Json render_build(soci::session& session, const Build& build, const Project& project,
                  const std::string& public_url);

}  // namespace loupe::builds
