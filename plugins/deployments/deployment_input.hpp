#pragma once
// The body of POST /deployments, validated with zod-style messages.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/http/request.hpp"
#include "store/deployment.hpp"

namespace loupe::deployments {

inline constexpr std::size_t max_files = 50000;
inline constexpr std::size_t max_path_bytes = 1024;

struct DeploymentInput {
    std::string commit;
    std::string branch;
    std::optional<int64_t> pr_number;
    std::optional<std::string> environment;  ///< preview | production; inferred when absent
    std::optional<bool> spa;                 ///< Loupe's extension: SPA fallback to index.html
    std::vector<DeploymentFile> files;
};

/// Why `path` cannot name a file of a site, or nullopt. Paths are relative, '/'-separated, at
/// most 1,024 bytes, without empty, "." or ".." segments, backslashes or control characters.
std::optional<std::string> path_problem(const std::string& path);

/// Validates the request body; throws HttpError::invalid with every issue.
DeploymentInput parse_deployment_input(Request& request);

}  // namespace loupe::deployments
