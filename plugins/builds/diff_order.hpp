#pragma once
// The review order of a build's diffs, kept per version of the build's diff rows: a page of the
// diff list of a build of thousands reads the diff rows (to know the version) and the page's own
// screenshots, not every screenshot of the build, and sorts nothing once the order is known.
// The order is a function of the diff rows and the names (and, for failure screenshots, the
// retry metadata) of their screenshots, which never change once written; so a digest of the
// rows' ordering fields names the order exactly, across instances, without invalidation.
// THREADS: thread-safe.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loupe/cache/single_flight_cache.hpp"
#include "store/diffs.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// The ids of a build's diffs in review order, and of those that need a review.
struct DiffOrder {
    std::vector<int64_t> all;
    std::vector<int64_t> needing_review;
};

class DiffOrderCache {
public:
    /// `builds`: how many build versions are kept (the least recently stored go first).
    explicit DiffOrderCache(std::size_t builds = 64);

    /// The order of `rows` (every diff of the build, as read now): from the cache when these
    /// rows were ordered before, else read and sorted once for every concurrent caller.
    std::shared_ptr<const DiffOrder> order_of(soci::session& session, int64_t build_id, bool subset,
                                              const std::vector<DiffRow>& rows);

    /// The key of these rows' order: the build, whether it is a subset, and a digest of every
    /// field of the rows that the order or the review filter reads.
    static std::string version_of(int64_t build_id, bool subset, const std::vector<DiffRow>& rows);

private:
    SingleFlightCache<std::string, std::shared_ptr<const DiffOrder>> cache_;
};

/// Sorts the rows for review (reading their screenshots' names, and the metadata of failure
/// screenshots only) without a cache.
DiffOrder read_diff_order(soci::session& session, bool subset, const std::vector<DiffRow>& rows);

}  // namespace loupe::builds
