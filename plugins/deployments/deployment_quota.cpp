#include "deployment_quota.hpp"

#include "loupe/http/http_error.hpp"

namespace loupe::deployments {
namespace {

[[noreturn]] void too_many_bytes(int64_t bytes, const DeploymentQuota& quota, const char* what) {
    throw HttpError(
        413,
        "Deployment too large: " + std::to_string(bytes) + " bytes " + what +
            ", over this server's limit of " + std::to_string(quota.max_bytes) +
            " bytes per deployment",
        {"the files of one deployment may hold at most " + std::to_string(quota.max_bytes) +
         " bytes (plugins.deployments.max_bytes); deploy a smaller folder or ask the "
         "operator to raise the limit"});
}

}  // namespace

void check_declared(int64_t files, int64_t declared_bytes, const DeploymentQuota& quota) {
    if (files > quota.max_files) {
        throw HttpError(413,
                        "Deployment too large: " + std::to_string(files) +
                            " files, over this server's limit of " +
                            std::to_string(quota.max_files) + " files per deployment",
                        {"one deployment may hold at most " + std::to_string(quota.max_files) +
                         " files (plugins.deployments.max_files); deploy a smaller folder or "
                         "ask the operator to raise the limit"});
    }
    if (declared_bytes > quota.max_bytes) {
        too_many_bytes(declared_bytes, quota, "declared");
    }
}

void check_stored_bytes(int64_t bytes, const DeploymentQuota& quota) {
    if (bytes > quota.max_bytes) {
        too_many_bytes(bytes, quota, "uploaded");
    }
}

}  // namespace loupe::deployments
