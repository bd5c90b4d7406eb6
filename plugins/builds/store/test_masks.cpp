#include "store/test_masks.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe::builds {
namespace {

constexpr const char* mask_columns =
    "id, project_id, test_id, branch, x, y, width, height, note, created_by, created_at, "
    "removed_by, removed_at";

TestMask read_mask(const soci::row& row) {
    RowReader r(row);
    TestMask mask;
    mask.id = r.int64("id");
    mask.project_id = r.int64("project_id");
    mask.test_id = r.int64("test_id");
    mask.branch = r.optional_text("branch");
    mask.x = r.int64("x");
    mask.y = r.int64("y");
    mask.width = r.int64("width");
    mask.height = r.int64("height");
    mask.note = r.text("note");
    mask.created_by = r.optional_int("created_by");
    mask.created_at = r.int64("created_at");
    mask.removed_by = r.optional_int("removed_by");
    mask.removed_at = r.optional_int("removed_at");
    return mask;
}

template <class... Values>
std::vector<TestMask> select_masks(soci::session& session, const std::string& where,
                                   const Values&... values) {
    std::vector<TestMask> masks;
    const std::string sql = std::string("SELECT ") + mask_columns + " FROM test_masks WHERE " +
                            where + " ORDER BY created_at, id";
    soci::rowset<soci::row> rows = ((session.prepare << sql), ..., soci::use(values));
    for (const auto& row : rows) {
        masks.push_back(read_mask(row));
    }
    return masks;
}

}  // namespace

// Optional values travel as 0 or '' and become NULL through NULLIF (ids start at 1; a branch
// name is never empty).
void insert_test_mask(soci::session& session, TestMask& mask) {
    const std::string branch = mask.branch.value_or("");
    const int64_t created_by = mask.created_by.value_or(0);
    session << "INSERT INTO test_masks (project_id, test_id, branch, x, y, width, height, note, "
               "created_by, created_at) VALUES (:p, :t, NULLIF(:b, ''), :x, :y, :w, :h, :note, "
               "NULLIF(:u, CAST(0 AS BIGINT)), :at) RETURNING id",
        soci::use(mask.project_id), soci::use(mask.test_id), soci::use(branch), soci::use(mask.x),
        soci::use(mask.y), soci::use(mask.width), soci::use(mask.height), soci::use(mask.note),
        soci::use(created_by), soci::use(mask.created_at), soci::into(mask.id);
}

std::vector<TestMask> test_masks(soci::session& session, int64_t test_id, bool with_removed) {
    const int all = with_removed ? 1 : 0;
    return select_masks(session, "test_id = :t AND (:all = 1 OR removed_at IS NULL)", test_id, all);
}

std::vector<TestMask> masks_in_force(soci::session& session, int64_t test_id,
                                     const std::string& branch) {
    return select_masks(session,
                        "test_id = :t AND removed_at IS NULL AND (branch IS NULL OR branch = :b)",
                        test_id, branch);
}

std::optional<TestMask> find_test_mask(soci::session& session, int64_t test_id, int64_t mask_id) {
    auto masks = select_masks(session, "test_id = :t AND id = :id", test_id, mask_id);
    if (masks.empty()) {
        return std::nullopt;
    }
    return masks.front();
}

void remove_test_mask(soci::session& session, int64_t mask_id, std::optional<int64_t> user_id,
                      int64_t at) {
    const int64_t by = user_id.value_or(0);
    session << "UPDATE test_masks SET removed_at = :at, removed_by = NULLIF(:u, CAST(0 AS BIGINT)) "
               "WHERE id = :id AND removed_at IS NULL",
        soci::use(at), soci::use(by), soci::use(mask_id);
}

}  // namespace loupe::builds
