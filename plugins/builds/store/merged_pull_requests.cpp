#include "store/merged_pull_requests.hpp"

namespace loupe::builds {

bool insert_merged_pull_request(soci::session& session, int64_t project_id, int64_t pr_number,
                                int64_t merged_at) {
    soci::statement insert =
        (session.prepare << "INSERT INTO merged_pull_requests (project_id, pr_number, merged_at) "
                            "VALUES (:project, :pr, :merged) ON CONFLICT (project_id, pr_number) "
                            "DO NOTHING",
         soci::use(project_id), soci::use(pr_number), soci::use(merged_at));
    insert.execute(true);
    return insert.get_affected_rows() > 0;
}

bool is_merged_pull_request(soci::session& session, int64_t project_id, int64_t pr_number) {
    int found = 0;
    session << "SELECT 1 FROM merged_pull_requests WHERE project_id = :project AND pr_number = "
               ":pr",
        soci::use(project_id), soci::use(pr_number), soci::into(found);
    return session.got_data();
}

}  // namespace loupe::builds
