#include "deployment_json.hpp"

namespace loupe::deployments {

Json deployment_json(const Deployment& deployment, const std::string& url) {
    return {{"id", std::to_string(deployment.id)},
            {"status", deployment.status},
            {"environment", deployment.environment},
            {"branch", deployment.branch},
            {"commitSha", deployment.commit},
            {"url", url},
            {"createdAt", iso_time(deployment.created_at)}};
}

}  // namespace loupe::deployments
