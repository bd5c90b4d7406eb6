#include "jobs/job_listing.hpp"

#include "loupe/db/row_reader.hpp"

namespace loupe {
namespace {

constexpr const char* job_columns =
    "SELECT id, kind, payload, status, attempts, max_attempts, run_at, lease_until, locked_by, "
    "last_error, created_at, updated_at FROM jobs";

JobRow read_job(const soci::row& row) {
    const RowReader read(row);
    JobRow job;
    job.id = read.int64("id");
    job.kind = read.text("kind");
    job.payload = Json::parse(read.text("payload"), nullptr, false);
    if (job.payload.is_discarded()) {
        job.payload = read.text("payload");
    }
    job.status = read.text("status");
    job.attempts = static_cast<int>(read.int64("attempts"));
    job.max_attempts = static_cast<int>(read.int64("max_attempts"));
    job.run_at = read.int64("run_at");
    job.lease_until = read.optional_int("lease_until");
    job.locked_by = read.optional_text("locked_by");
    job.last_error = read.optional_text("last_error");
    job.created_at = read.int64("created_at");
    job.updated_at = read.int64("updated_at");
    return job;
}

std::optional<JobRow> find_in(soci::session& session, int64_t id) {
    soci::rowset<soci::row> rows =
        (session.prepare << std::string(job_columns) + " WHERE id = :id", soci::use(id));
    for (const auto& row : rows) {
        return read_job(row);
    }
    return std::nullopt;
}

}  // namespace

JobCommandError::~JobCommandError() = default;

std::vector<JobRow> list_jobs(Database& database, const JobFilter& filter) {
    // Empty strings stand for "no filter", so one statement serves every combination.
    const std::string status = filter.status.value_or("");
    const std::string status_again = status;
    const std::string kind = filter.kind.value_or("");
    const std::string kind_again = kind;
    const int64_t limit = filter.limit;
    auto session = database.session();
    soci::rowset<soci::row> rows =
        (session->prepare << std::string(job_columns) +
                                 " WHERE ((CAST(:status AS TEXT) = '' AND status <> 'done') OR "
                                 "status = :status_again) AND (CAST(:kind AS TEXT) = '' OR "
                                 "kind = :kind_again) ORDER BY id DESC LIMIT :limit",
         soci::use(status), soci::use(status_again), soci::use(kind), soci::use(kind_again),
         soci::use(limit));
    std::vector<JobRow> jobs;
    for (const auto& row : rows) {
        jobs.push_back(read_job(row));
    }
    return jobs;
}

std::optional<JobRow> find_job(Database& database, int64_t id) {
    auto session = database.session();
    return find_in(*session, id);
}

JobRow retry_failed_job(Database& database, int64_t id) {
    return database.transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        const int64_t run_at = now;
        soci::statement update =
            (session.prepare
                 << "UPDATE jobs SET status = 'queued', attempts = 0, run_at = :run_at, "
                    "lease_until = NULL, updated_at = :now WHERE id = :id AND "
                    "status = 'failed'",
             soci::use(run_at), soci::use(now), soci::use(id));
        update.execute(true);
        const bool retried = update.get_affected_rows() > 0;
        auto job = find_in(session, id);
        if (!job) {
            throw JobCommandError("job " + std::to_string(id) + " not found");
        }
        if (!retried) {
            throw JobCommandError("job " + std::to_string(id) + " is " + job->status +
                                  ", not failed: only failed jobs can be retried");
        }
        return *job;
    });
}

}  // namespace loupe
