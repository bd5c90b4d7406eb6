#include "branch_glob.hpp"

#include <fnmatch.h>

namespace loupe::deployments {

bool branch_matches_glob(const std::string& glob, const std::string& branch) {
    const int flags = glob.find("**") != std::string::npos ? 0 : FNM_PATHNAME;
    return fnmatch(glob.c_str(), branch.c_str(), flags) == 0;
}

}  // namespace loupe::deployments
