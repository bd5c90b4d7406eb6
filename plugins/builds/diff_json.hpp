#pragma once
// The SnapshotDiff shape of the diff list and the review order of a build's diffs.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/blob/blob_store.hpp"
#include "processing/diff_status.hpp"
#include "store/build.hpp"
#include "store/diffs.hpp"
#include "store/screenshots.hpp"

namespace loupe::builds {

/// A diff with its screenshots and its display status.
struct DiffView {
    DiffRow row;
    const Screenshot* base = nullptr;
    const Screenshot* head = nullptr;
    DiffStatus status = DiffStatus::pending;
};

/// The build's diffs as views; `screenshots` must hold both sides of every diff.
std::vector<DiffView> diff_views(const std::vector<DiffRow>& rows,
                                 const std::map<int64_t, Screenshot>& screenshots);

/// `needsReview=true`: changed, added (not a failure screenshot), removed (non-subset builds).
bool needs_review(const DiffView& diff, bool subset);

/// Sorts by status rank, group (nulls last), score desc (nulls last), head name, base name, id.
void sort_for_review(std::vector<DiffView>& diffs);

/// The SnapshotDiff JSON; `test` and `change` are filled by the caller (they need queries).
Json diff_json(const DiffView& diff, BlobStore& blobs);

}  // namespace loupe::builds
