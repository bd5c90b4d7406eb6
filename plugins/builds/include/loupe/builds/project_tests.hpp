#pragma once
// The tests of a project (a screenshot name within a build name, followed across builds), for
// plugins that attach their own rows to a test (comments, subscriptions). Look it up at install
// time with `host.services().find<loupe::builds::ProjectTests>()` (nullptr without the builds
// plugin). A test's public id is Argos's (`<PROJECT NAME IN UPPER CASE>-<sqid>`).
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: thread-safe.
// VERSIONING: a new method is a minor change; a changed signature bumps service_version.

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/auth/identity.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

struct TestSummary {
    int64_t id = 0;
    std::string public_id;  ///< what the API shows and accepts
    std::string name;
    std::string build_name;
};

class ProjectTests {
public:
    static constexpr const char* service_name = "builds.ProjectTests";
    static constexpr int service_version = 1;

    virtual ~ProjectTests() = default;
    /// The project's test with this public id; nullopt when the id is malformed, names another
    /// project, or no test.
    virtual std::optional<TestSummary> find_test(soci::session& session, const Project& project,
                                                 const std::string& public_id) = 0;
    /// The public id of the project's test `test_id`.
    virtual std::string public_id(const Project& project, int64_t test_id) = 0;
};

}  // namespace loupe::builds
