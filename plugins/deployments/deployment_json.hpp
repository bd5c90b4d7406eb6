#pragma once
// The Deployment resource: {id, status, environment, branch, commitSha, url, createdAt}.

#include <string>

#include "loupe/json.hpp"
#include "store/deployment.hpp"

namespace loupe::deployments {

Json deployment_json(const Deployment& deployment, const std::string& url);

}  // namespace loupe::deployments
