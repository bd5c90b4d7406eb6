#include "store/diffs.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"
#include "store/query.hpp"

namespace loupe::builds {
namespace {

constexpr const char* diff_columns =
    "id, build_id, base_screenshot_id, head_screenshot_id, test_id, job_status, score, mask_key, "
    "fingerprint, group_key, ignored, error, created_at";

DiffRow read_diff(const soci::row& row) {
    RowReader r(row);
    DiffRow d;
    d.id = r.int64("id");
    d.build_id = r.int64("build_id");
    d.base_screenshot_id = r.optional_int("base_screenshot_id");
    d.head_screenshot_id = r.optional_int("head_screenshot_id");
    d.test_id = r.optional_int("test_id");
    d.job_status = r.text("job_status");
    d.score = r.optional_double("score");
    d.mask_key = r.optional_text("mask_key");
    d.fingerprint = r.optional_text("fingerprint");
    d.group_key = r.optional_text("group_key");
    d.ignored = r.flag("ignored");
    d.error = r.optional_text("error");
    d.created_at = r.int64("created_at");
    return d;
}

}  // namespace

// Optional ids travel as 0 and scores as -1 and become NULL through NULLIF: ids start at 1
// and scores are fractions in [0, 1].
int64_t insert_diff(soci::session& session, const DiffRow& diff) {
    const int64_t base = diff.base_screenshot_id.value_or(0);
    const int64_t head = diff.head_screenshot_id.value_or(0);
    const int64_t test = diff.test_id.value_or(0);
    const double score = diff.score.value_or(-1);
    const int64_t now = diff.created_at != 0 ? diff.created_at : now_ms();
    int64_t id = 0;
    session << "INSERT INTO screenshot_diffs (build_id, base_screenshot_id, head_screenshot_id, "
               "test_id, job_status, score, created_at, updated_at) VALUES (:b, "
               "NULLIF(:base, CAST(0 AS BIGINT)), NULLIF(:head, CAST(0 AS BIGINT)), "
               "NULLIF(:test, CAST(0 AS BIGINT)), :status, "
               "NULLIF(:score, CAST(-1 AS DOUBLE PRECISION)), :now, :now2) RETURNING id",
        soci::use(diff.build_id), soci::use(base), soci::use(head), soci::use(test),
        soci::use(diff.job_status), soci::use(score), soci::use(now), soci::use(now),
        soci::into(id);
    return id;
}

std::optional<DiffRow> find_diff(soci::session& session, int64_t id) {
    std::optional<DiffRow> found;
    Query()
        .where("id = ?", {id})
        .for_each_row(session, diff_columns, "screenshot_diffs", "",
                      [&](const soci::row& row) { found = read_diff(row); });
    return found;
}

std::vector<DiffRow> build_diffs(soci::session& session, int64_t build_id) {
    std::vector<DiffRow> diffs;
    Query()
        .where("build_id = ?", {build_id})
        .for_each_row(session, diff_columns, "screenshot_diffs", "ORDER BY id",
                      [&](const soci::row& row) { diffs.push_back(read_diff(row)); });
    return diffs;
}

void complete_diff(soci::session& session, const DiffRow& diff) {
    const double score = diff.score.value_or(-1);
    const std::string mask = diff.mask_key.value_or("");
    const std::string fingerprint = diff.fingerprint.value_or("");
    const int ignored = diff.ignored ? 1 : 0;
    const int64_t now = now_ms();
    session << "UPDATE screenshot_diffs SET job_status = 'complete', "
               "score = NULLIF(:score, CAST(-1 AS DOUBLE PRECISION)), "
               "mask_key = NULLIF(:mask, ''), fingerprint = NULLIF(:fp, ''), ignored = :ignored, "
               "error = NULL, updated_at = :now WHERE id = :id",
        soci::use(score), soci::use(mask), soci::use(fingerprint), soci::use(ignored),
        soci::use(now), soci::use(diff.id);
}

void fail_diff(soci::session& session, int64_t id, const std::string& error) {
    const int64_t now = now_ms();
    session << "UPDATE screenshot_diffs SET job_status = 'error', error = :e, updated_at = :now "
               "WHERE id = :id AND job_status = 'pending'",
        soci::use(error), soci::use(now), soci::use(id);
}

bool build_has_failed_diff(soci::session& session, int64_t build_id) {
    return Query()
               .where("build_id = ?", {build_id})
               .where("job_status = 'error'")
               .count(session, "screenshot_diffs") > 0;
}

int64_t pending_diff_count(soci::session& session, int64_t build_id) {
    return Query()
        .where("build_id = ?", {build_id})
        .where("job_status <> 'complete'")
        .count(session, "screenshot_diffs");
}

void group_by_fingerprint(soci::session& session, int64_t build_id,
                          const std::string& fingerprint) {
    const auto sharing = Query()
                             .where("build_id = ?", {build_id})
                             .where("fingerprint = ?", {fingerprint})
                             .count(session, "screenshot_diffs");
    if (sharing >= 2) {
        session << "UPDATE screenshot_diffs SET group_key = :fp WHERE build_id = :b AND "
                   "fingerprint = :fp2",
            soci::use(fingerprint), soci::use(build_id), soci::use(fingerprint);
    }
}

}  // namespace loupe::builds
