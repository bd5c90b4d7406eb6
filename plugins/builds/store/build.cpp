#include "store/build.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "store/state_columns.hpp"

namespace loupe::builds {
namespace {

std::string json_text(const Json& value) {
    return value.is_null() ? std::string() : value.dump();
}

Build read_build(const soci::row& row) {
    RowReader r(row);
    Build b;
    b.id = r.int64("id");
    b.project_id = r.int64("project_id");
    b.number = r.int64("number");
    b.name = r.text("name");
    b.commit = r.text("commit_sha");
    b.branch = r.text("branch");
    b.pr_number = r.optional_int("pr_number");
    b.pr_head_commit = r.optional_text("pr_head_commit");
    b.reference_commit = r.optional_text("reference_commit");
    b.reference_branch = r.optional_text("reference_branch");
    b.parent_commits = r.json("parent_commits");
    b.mode = stored_state<BuildMode>(r.text("mode"), "builds.mode");
    b.ci_provider = r.optional_text("ci_provider");
    b.argos_sdk = r.optional_text("argos_sdk");
    b.run_id = r.optional_text("run_id");
    b.run_attempt = r.optional_int("run_attempt");
    b.type = stored_state<BuildType>(r.optional_text("type"), "builds.type");
    b.job_status = stored_state<ProcessingState>(r.text("job_status"), "builds.job_status");
    b.parallel = r.flag("parallel");
    b.parallel_nonce = r.optional_text("parallel_nonce");
    b.batch_count = r.int64("batch_count");
    b.total_batch = r.optional_int("total_batch");
    b.partial = r.flag("partial");
    b.merge_queue = r.flag("merge_queue");
    b.merge_queue_pr_numbers = r.json("merge_queue_pr_numbers");
    b.subset = r.flag("subset");
    b.complete = r.flag("complete");
    b.valid = r.flag("valid");
    b.screenshot_count = r.int64("screenshot_count");
    b.metadata = r.json("metadata");
    b.conclusion = stored_state<Conclusion>(r.optional_text("conclusion"), "builds.conclusion");
    b.stats = r.json("stats");
    b.concluded_at = r.optional_int("concluded_at");
    b.base_build_id = r.optional_int("base_build_id");
    b.baseline_reason = r.optional_text("baseline_reason");
    b.baseline_approval = r.optional_text("baseline_approval");
    b.created_at = r.int64("created_at");
    b.updated_at = r.int64("updated_at");
    b.finalized_at = r.optional_int("finalized_at");
    b.review_state =
        stored_state<ReviewState>(r.optional_text("review_state"), "builds.review_state");
    b.review_details = r.json("review_details");
    return b;
}

std::optional<Build> select_one(soci::session& session, const std::string& where,
                                const std::vector<int64_t>& ints,
                                const std::vector<std::string>& texts) {
    soci::row row;
    soci::statement statement(session);
    std::string sql = std::string("SELECT ") + build_columns + " FROM builds WHERE " + where;
    statement.alloc();
    statement.prepare(sql);
    for (const auto& value : ints) {
        statement.exchange(soci::use(value));
    }
    for (const auto& value : texts) {
        statement.exchange(soci::use(value));
    }
    statement.exchange(soci::into(row));
    statement.define_and_bind();
    statement.execute(true);
    if (!statement.got_data()) {
        return std::nullopt;
    }
    return read_build(row);
}

}  // namespace

const char* const build_columns =
    "id, project_id, number, name, commit_sha, branch, pr_number, pr_head_commit, "
    "reference_commit, reference_branch, parent_commits, mode, ci_provider, argos_sdk, run_id, "
    "run_attempt, type, job_status, parallel, parallel_nonce, batch_count, total_batch, partial, "
    "merge_queue, merge_queue_pr_numbers, subset, complete, valid, screenshot_count, metadata, "
    "conclusion, stats, concluded_at, base_build_id, baseline_reason, baseline_approval, "
    "created_at, updated_at, "
    "finalized_at, review_state, review_details";

std::optional<Build> find_build(soci::session& session, Dialect dialect, int64_t id,
                                bool for_update) {
    std::string where = "id = :id";
    if (for_update && dialect == Dialect::postgresql) {
        where += " FOR UPDATE";
    }
    return select_one(session, where, {id}, {});
}

std::optional<Build> find_build_by_number(soci::session& session, int64_t project_id,
                                          int64_t number) {
    return select_one(session, "project_id = :p AND number = :n", {project_id, number}, {});
}

std::optional<Build> find_parallel_build(soci::session& session, Dialect dialect,
                                         int64_t project_id, const std::string& nonce,
                                         const std::string& name) {
    std::string where =
        "project_id = :p AND parallel_nonce = :nonce AND name = :name ORDER BY id DESC LIMIT 1";
    if (dialect == Dialect::postgresql) {
        where += " FOR UPDATE";
    }
    return select_one(session, where, {project_id}, {nonce, name});
}

std::vector<Build> find_builds(soci::session& session, const Query& query,
                               const std::string& suffix, std::vector<QueryValue> suffix_values) {
    std::vector<Build> builds;
    query.for_each_row(
        session, build_columns, "builds", suffix,
        [&](const soci::row& row) { builds.push_back(read_build(row)); }, std::move(suffix_values));
    return builds;
}

std::map<int64_t, Build> find_builds_by_id(soci::session& session,
                                           const std::vector<int64_t>& ids) {
    std::map<int64_t, Build> builds;
    for_each_row_of_ids(session,
                        std::string("SELECT ") + build_columns +
                            " FROM builds WHERE id IN (SELECT CAST(value AS BIGINT) FROM "
                            "{{json_rows:ids}})",
                        ids, [&](const soci::row& row) {
                            auto build = read_build(row);
                            builds.emplace(build.id, std::move(build));
                        });
    return builds;
}

std::vector<int64_t> builds_awaiting_finalize(soci::session& session, int64_t project_id,
                                              const std::string& nonce) {
    Query query;
    query.where("project_id = ?", {project_id})
        .where("parallel_nonce = ?", {nonce})
        .where("total_batch = -1");
    return query.ids(session, "builds", "id", "ORDER BY id");
}

void lock_build_counter(soci::session& session, Dialect dialect, int64_t project_id) {
    session << "INSERT INTO build_counters (project_id, last_number) VALUES (:p, 0) "
               "ON CONFLICT (project_id) DO NOTHING",
        soci::use(project_id);
    if (dialect == Dialect::postgresql) {
        int64_t ignored = 0;
        session << "SELECT last_number FROM build_counters WHERE project_id = :p FOR UPDATE",
            soci::use(project_id), soci::into(ignored);
    }
}

int64_t allocate_build_number(soci::session& session, int64_t project_id) {
    int64_t number = 0;
    session << "UPDATE build_counters SET last_number = last_number + 1 WHERE project_id = :p "
               "RETURNING last_number",
        soci::use(project_id), soci::into(number);
    return number;
}

// Optional values travel as '' / 0 and become NULL through NULLIF in the SQL: none of these
// columns has a meaningful empty string or zero (numbers, counts and SHAs start at 1).
void insert_build(soci::session& session, Build& b) {
    const std::string parent_commits = json_text(b.parent_commits);
    const std::string merge_queue_prs = json_text(b.merge_queue_pr_numbers);
    const std::string metadata = json_text(b.metadata);
    const int parallel = b.parallel, partial = b.partial, merge_queue = b.merge_queue,
              subset = b.subset, complete = b.complete, valid = b.valid;
    const int64_t pr_number = b.pr_number.value_or(0), run_attempt = b.run_attempt.value_or(0),
                  total_batch = b.total_batch.value_or(0),
                  finalized_at = b.finalized_at.value_or(0);
    const std::string pr_head = b.pr_head_commit.value_or(""),
                      ref_commit = b.reference_commit.value_or(""),
                      ref_branch = b.reference_branch.value_or(""), ci = b.ci_provider.value_or(""),
                      sdk = b.argos_sdk.value_or(""), run_id = b.run_id.value_or(""),
                      type = state_text_or_empty(b.type), nonce = b.parallel_nonce.value_or(""),
                      mode(to_text(b.mode)), job_status(to_text(b.job_status));
    session
        << "INSERT INTO builds (project_id, number, name, commit_sha, branch, pr_number, "
           "pr_head_commit, reference_commit, reference_branch, parent_commits, mode, "
           "ci_provider, argos_sdk, run_id, run_attempt, type, job_status, parallel, "
           "parallel_nonce, batch_count, total_batch, partial, merge_queue, "
           "merge_queue_pr_numbers, subset, complete, valid, screenshot_count, metadata, "
           "created_at, updated_at, finalized_at) VALUES (:project_id, :number, :name, "
           ":commit_sha, :branch, NULLIF(:pr_number, CAST(0 AS BIGINT)), NULLIF(:pr_head_commit, "
           "''), "
           "NULLIF(:reference_commit, ''), NULLIF(:reference_branch, ''), "
           "NULLIF(:parent_commits, ''), :mode, NULLIF(:ci_provider, ''), "
           "NULLIF(:argos_sdk, ''), NULLIF(:run_id, ''), NULLIF(:run_attempt, CAST(0 AS BIGINT)), "
           "NULLIF(:type, ''), :job_status, :parallel, NULLIF(:parallel_nonce, ''), "
           ":batch_count, NULLIF(:total_batch, CAST(0 AS BIGINT)), :partial, :merge_queue, "
           "NULLIF(:merge_queue_pr_numbers, ''), :subset, :complete, :valid, "
           ":screenshot_count, NULLIF(:metadata, ''), :created_at, :updated_at, "
           "NULLIF(:finalized_at, CAST(0 AS BIGINT))) RETURNING id",
        soci::use(b.project_id), soci::use(b.number), soci::use(b.name), soci::use(b.commit),
        soci::use(b.branch), soci::use(pr_number), soci::use(pr_head), soci::use(ref_commit),
        soci::use(ref_branch), soci::use(parent_commits), soci::use(mode), soci::use(ci),
        soci::use(sdk), soci::use(run_id), soci::use(run_attempt), soci::use(type),
        soci::use(job_status), soci::use(parallel), soci::use(nonce), soci::use(b.batch_count),
        soci::use(total_batch), soci::use(partial), soci::use(merge_queue),
        soci::use(merge_queue_prs), soci::use(subset), soci::use(complete), soci::use(valid),
        soci::use(b.screenshot_count), soci::use(metadata), soci::use(b.created_at),
        soci::use(b.updated_at), soci::use(finalized_at), soci::into(b.id);
}

void mark_untrusted_head(soci::session& session, int64_t build_id) {
    session << "UPDATE builds SET untrusted_head = 1 WHERE id = :id", soci::use(build_id);
}

void update_build_state(soci::session& session, const Build& b) {
    const std::string metadata = json_text(b.metadata);
    const std::string stats = json_text(b.stats);
    const std::string type = state_text_or_empty(b.type);
    const std::string job_status(to_text(b.job_status));
    const std::string conclusion = state_text_or_empty(b.conclusion);
    const std::string reason = b.baseline_reason.value_or("");
    const std::string approval = b.baseline_approval.value_or("");
    const int partial = b.partial, complete = b.complete, valid = b.valid;
    const int64_t total_batch = b.total_batch.value_or(0);
    const int64_t concluded_at = b.concluded_at.value_or(0);
    const int64_t base_build_id = b.base_build_id.value_or(0);
    const int64_t finalized_at = b.finalized_at.value_or(0);
    const int64_t updated_at = now_ms();
    session << "UPDATE builds SET type = NULLIF(:type, ''), job_status = :job_status, "
               "batch_count = :batch_count, total_batch = NULLIF(:total_batch, CAST(0 AS BIGINT)), "
               "partial = "
               ":partial, complete = :complete, valid = :valid, screenshot_count = "
               ":screenshot_count, metadata = NULLIF(:metadata, ''), conclusion = "
               "NULLIF(:conclusion, ''), stats = NULLIF(:stats, ''), concluded_at = "
               "NULLIF(:concluded_at, CAST(0 AS BIGINT)), base_build_id = NULLIF(:base_build_id, "
               "CAST(0 AS BIGINT)), "
               "baseline_reason = NULLIF(:baseline_reason, ''), baseline_approval = "
               "NULLIF(:baseline_approval, ''), finalized_at = "
               "NULLIF(:finalized_at, CAST(0 AS BIGINT)), updated_at = :updated_at WHERE id = :id",
        soci::use(type), soci::use(job_status), soci::use(b.batch_count), soci::use(total_batch),
        soci::use(partial), soci::use(complete), soci::use(valid), soci::use(b.screenshot_count),
        soci::use(metadata), soci::use(conclusion), soci::use(stats), soci::use(concluded_at),
        soci::use(base_build_id), soci::use(reason), soci::use(approval), soci::use(finalized_at),
        soci::use(updated_at), soci::use(b.id);
}

void update_review_state(soci::session& session, int64_t build_id,
                         const std::optional<ReviewState>& state, const Json& details) {
    const std::string state_text = state_text_or_empty(state);
    const std::string details_text = json_text(details);
    const int64_t updated_at = now_ms();
    session << "UPDATE builds SET review_state = NULLIF(:state, ''), review_details = "
               "NULLIF(:details, ''), updated_at = :updated_at WHERE id = :id",
        soci::use(state_text), soci::use(details_text), soci::use(updated_at), soci::use(build_id);
}

}  // namespace loupe::builds
