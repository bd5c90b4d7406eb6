#include "store/diffs.hpp"

#include <soci/soci.h>

#include <map>

#include "loupe/db/dialect.hpp"
#include "loupe/db/query.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"
#include "store/state_columns.hpp"

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
    d.job_status =
        stored_state<ProcessingState>(r.text("job_status"), "screenshot_diffs.job_status");
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
std::vector<int64_t> insert_build_diffs(soci::session& session, int64_t build_id,
                                        const std::vector<DiffRow>& diffs) {
    if (diffs.empty()) {
        return {};
    }
    // A diff is identified by its head screenshot, or by its base when removed (negated).
    auto identity = [](std::optional<int64_t> base, std::optional<int64_t> head) {
        return head ? *head : -base.value_or(0);
    };
    Json rows = Json::array();
    for (const auto& diff : diffs) {
        Json row = {{"status", diff.job_status}};
        if (diff.base_screenshot_id) {
            row["base"] = *diff.base_screenshot_id;
        }
        if (diff.head_screenshot_id) {
            row["head"] = *diff.head_screenshot_id;
        }
        if (diff.test_id) {
            row["test"] = *diff.test_id;
        }
        if (diff.score) {
            row["score"] = *diff.score;
        }
        rows.push_back(std::move(row));
    }
    const std::string rows_text = rows.dump();
    const int64_t now = diffs.front().created_at != 0 ? diffs.front().created_at : now_ms();
    session << render_sql(dialect_of(session),
                          "INSERT INTO screenshot_diffs (build_id, base_screenshot_id, "
                          "head_screenshot_id, test_id, job_status, score, created_at, "
                          "updated_at) SELECT :build, CAST(value ->> 'base' AS BIGINT), "
                          "CAST(value ->> 'head' AS BIGINT), CAST(value ->> 'test' AS BIGINT), "
                          "value ->> 'status', CAST(value ->> 'score' AS DOUBLE PRECISION), "
                          ":now, :now FROM {{json_rows:rows}} ORDER BY position"),
        soci::use(build_id, "build"), soci::use(now, "now"), soci::use(rows_text, "rows");
    std::map<int64_t, int64_t> id_by_identity;
    soci::rowset<soci::row> stored =
        (session.prepare << "SELECT id, base_screenshot_id, head_screenshot_id FROM "
                            "screenshot_diffs WHERE build_id = :b",
         soci::use(build_id));
    for (const auto& row : stored) {
        RowReader r(row);
        id_by_identity[identity(r.optional_int("base_screenshot_id"),
                                r.optional_int("head_screenshot_id"))] = r.int64("id");
    }
    std::vector<int64_t> ids;
    ids.reserve(diffs.size());
    for (const auto& diff : diffs) {
        ids.push_back(
            id_by_identity.at(identity(diff.base_screenshot_id, diff.head_screenshot_id)));
    }
    return ids;
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

std::vector<DiffRow> build_diffs_with_ids(soci::session& session, int64_t build_id,
                                          const std::vector<int64_t>& ids) {
    std::vector<DiffRow> diffs;
    if (ids.empty()) {
        return diffs;
    }
    const std::string ids_text = Json(ids).dump();
    soci::rowset<soci::row> rows =
        (session.prepare << render_sql(dialect_of(session),
                                       std::string("SELECT ") + diff_columns +
                                           " FROM screenshot_diffs WHERE build_id = :build AND "
                                           "id IN (SELECT CAST(value AS BIGINT) FROM "
                                           "{{json_rows:ids}}) ORDER BY id"),
         soci::use(build_id, "build"), soci::use(ids_text, "ids"));
    for (const auto& row : rows) {
        diffs.push_back(read_diff(row));
    }
    return diffs;
}

std::vector<DiffRow> diffs_with_ids(soci::session& session, const std::vector<int64_t>& ids) {
    std::vector<DiffRow> diffs;
    for_each_row_of_ids(session,
                        std::string("SELECT ") + diff_columns +
                            " FROM screenshot_diffs WHERE id IN (SELECT CAST(value AS BIGINT) "
                            "FROM {{json_rows:ids}}) ORDER BY id",
                        ids, [&](const soci::row& row) { diffs.push_back(read_diff(row)); });
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

void delete_build_diffs(soci::session& session, int64_t build_id) {
    session << "DELETE FROM screenshot_diffs WHERE build_id = :b", soci::use(build_id);
}

std::set<int64_t> builds_with_failed_diffs(soci::session& session,
                                           const std::vector<int64_t>& build_ids) {
    std::set<int64_t> failed;
    for_each_row_of_ids(
        session,
        "SELECT DISTINCT build_id FROM screenshot_diffs WHERE job_status = 'error' "
        "AND build_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}})",
        build_ids, [&](const soci::row& row) { failed.insert(RowReader(row).int64("build_id")); });
    return failed;
}

}  // namespace loupe::builds
