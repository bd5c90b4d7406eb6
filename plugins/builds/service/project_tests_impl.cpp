#include "service/project_tests_impl.hpp"

#include "ids/public_ids.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::builds {

std::optional<TestRecord> find_test_by_public_id(soci::session& session, const Project& project,
                                                 const std::string& public_id) {
    const auto ref = parse_test_public_id(public_id);
    if (!ref || ref->project_part != to_upper(project.name)) {
        return std::nullopt;
    }
    return find_project_test(session, project.id, ref->test_id);
}

std::optional<TestSummary> ProjectTestsImpl::find_test(soci::session& session,
                                                       const Project& project,
                                                       const std::string& public_id) {
    const auto test = find_test_by_public_id(session, project, public_id);
    if (!test) {
        return std::nullopt;
    }
    return TestSummary{test->id, test_public_id(project.name, test->id), test->name,
                       test->build_name};
}

std::string ProjectTestsImpl::public_id(const Project& project, int64_t test_id) {
    return test_public_id(project.name, test_id);
}

}  // namespace loupe::builds
