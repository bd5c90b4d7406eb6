#pragma once
// The Build resource plus Loupe's `baselineBuild` (which build was used as the baseline and
// why) and `review` (what the review state rests on). Pure: the caller loads what it needs.

#include <string>

#include "build_status.hpp"
#include "loupe/auth/identity.hpp"
#include "store/build.hpp"

namespace loupe::builds {

/// `<public url>/<account>/<project>/builds/<number>`
std::string build_url(const std::string& public_url, const Project& project, int64_t number);

/// `baseline` is the build's baseline row (nullptr when it has none).
Json build_json(const Build& build, const Project& project, const std::string& public_url,
                const Build* baseline, const StatusInputs& inputs);

}  // namespace loupe::builds
