#pragma once
// Masks drawn on a test: rectangles of its screenshot (in pixels) that diffs computed while the
// mask is in force do not count, on every branch (`branch` none) or on one. Removing a mask
// keeps its row, with who removed it and when.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

struct TestMask {
    int64_t id = 0;
    int64_t project_id = 0;
    int64_t test_id = 0;
    std::optional<std::string> branch;  ///< none: every branch
    int64_t x = 0, y = 0, width = 0, height = 0;
    std::string note;  ///< why (a clock, an ad)
    std::optional<int64_t> created_by;
    int64_t created_at = 0;
    std::optional<int64_t> removed_by;
    std::optional<int64_t> removed_at;
};

/// Inserts the mask; fills its id.
void insert_test_mask(soci::session& session, TestMask& mask);
/// The test's masks, oldest first: in force only, or removed ones too.
std::vector<TestMask> test_masks(soci::session& session, int64_t test_id, bool with_removed);
/// The masks in force for a diff of the test on `branch`: those of every branch and of it.
std::vector<TestMask> masks_in_force(soci::session& session, int64_t test_id,
                                     const std::string& branch);
std::optional<TestMask> find_test_mask(soci::session& session, int64_t test_id, int64_t mask_id);
/// Marks the mask removed (a mask already removed keeps its first removal).
void remove_test_mask(soci::session& session, int64_t mask_id, std::optional<int64_t> user_id,
                      int64_t at);

}  // namespace loupe::builds
