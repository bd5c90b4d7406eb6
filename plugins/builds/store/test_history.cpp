#include "store/test_history.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe::builds {

std::vector<int64_t> test_history_diff_ids(soci::session& session, int64_t test_id,
                                           const std::optional<std::string>& branch,
                                           int64_t limit) {
    const std::string branch_name = branch.value_or("");
    const int any_branch = branch ? 0 : 1;
    std::vector<int64_t> ids;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT d.id FROM screenshot_diffs d JOIN builds b ON b.id = "
                            "d.build_id WHERE d.test_id = :t AND (:any = 1 OR b.branch = :branch) "
                            "ORDER BY b.number DESC, d.id DESC LIMIT :n",
         soci::use(test_id), soci::use(any_branch), soci::use(branch_name), soci::use(limit));
    for (const auto& row : rows) {
        ids.push_back(RowReader(row).int64("id"));
    }
    return ids;
}

}  // namespace loupe::builds
