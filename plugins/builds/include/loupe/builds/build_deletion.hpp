#pragma once
// Retention deletes old builds (`loupe admin prune`). A plugin that keeps rows about builds or
// their diffs (reviews, comments, commit statuses) deletes its own rows when they go: it
// registers an observer here, and the builds plugin calls it inside the transaction that
// deletes the builds, before their rows go. Look it up at install time:
//   if (auto* deletion = host.services().find<loupe::builds::BuildDeletion>()) {
//       deletion->observe(...);
//   }
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: observe() during
// install() only; observers run on whichever thread prunes.

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// The builds about to be deleted (all of one project), and every diff of them.
struct DeletedBuilds {
    int64_t project_id = 0;
    std::vector<int64_t> build_ids;
    std::vector<int64_t> diff_ids;
};

/// Rows an observer deleted, by a name for the report ("reviews", "comments", ...). In a dry
/// run the transaction is rolled back afterwards: the counts are what would have gone.
using DeletedRows = std::vector<std::pair<std::string, int64_t>>;

/// Deletes the observer's own rows about `deleted` in `session` (throwing rolls the whole
/// deletion back).
using BuildDeletionObserver =
    std::function<DeletedRows(soci::session& session, const DeletedBuilds& deleted)>;

class BuildDeletion {
public:
    static constexpr const char* service_name = "builds.BuildDeletion";
    static constexpr int service_version = 1;

    virtual ~BuildDeletion() = default;
    /// Adds an observer (install() only).
    virtual void observe(BuildDeletionObserver observer) = 0;
};

}  // namespace loupe::builds
