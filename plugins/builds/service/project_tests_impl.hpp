#pragma once
// ProjectTests over the builds plugin's own test rows.

#include "loupe/builds/project_tests.hpp"
#include "store/project_tests.hpp"

namespace loupe::builds {

/// The project's test named by a public id: its project part must be the project's name in
/// upper case (as Argos compares it), its number one of the project's tests.
std::optional<TestRecord> find_test_by_public_id(soci::session& session, const Project& project,
                                                 const std::string& public_id);

class ProjectTestsImpl final : public ProjectTests {
public:
    std::optional<TestSummary> find_test(soci::session& session, const Project& project,
                                         const std::string& public_id) override;
    std::string public_id(const Project& project, int64_t test_id) override;
};

}  // namespace loupe::builds
