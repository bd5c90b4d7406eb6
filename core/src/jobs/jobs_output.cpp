#include "jobs/jobs_output.hpp"

#include <algorithm>
#include <string>

#include "cli/text_table.hpp"
#include "jobs/utf8_prefix.hpp"

namespace loupe {
namespace {

constexpr std::size_t error_column_bytes = 60;

Json optional_json(const std::optional<std::string>& value) {
    return value ? Json(*value) : Json(nullptr);
}

std::string one_line(std::string text) {
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string short_error(const std::optional<std::string>& error) {
    if (!error) {
        return "-";
    }
    const auto line = one_line(*error);
    return line.size() <= error_column_bytes ? line
                                             : utf8_prefix(line, error_column_bytes - 3) + "...";
}

std::string lease_text(const JobRow& job) {
    if (job.lease_until) {
        return iso_time(*job.lease_until) + " " + job.locked_by.value_or("?");
    }
    return job.locked_by.value_or("-");
}

}  // namespace

Json job_json(const JobRow& job) {
    return Json{{"id", std::to_string(job.id)},
                {"kind", job.kind},
                {"status", job.status},
                {"attempts", job.attempts},
                {"maxAttempts", job.max_attempts},
                {"runAt", iso_time(job.run_at)},
                {"leaseUntil", job.lease_until ? Json(iso_time(*job.lease_until)) : Json(nullptr)},
                {"lockedBy", optional_json(job.locked_by)},
                {"lastError", optional_json(job.last_error)},
                {"payload", job.payload},
                {"createdAt", iso_time(job.created_at)},
                {"updatedAt", iso_time(job.updated_at)}};
}

void print_job_table(std::ostream& out, const std::vector<JobRow>& jobs) {
    std::vector<std::vector<std::string>> rows{
        {"ID", "KIND", "STATUS", "ATTEMPTS", "RUN AT", "LEASE / LOCKED BY", "LAST ERROR"}};
    for (const auto& job : jobs) {
        rows.push_back({std::to_string(job.id), job.kind, job.status,
                        std::to_string(job.attempts) + "/" + std::to_string(job.max_attempts),
                        iso_time(job.run_at), lease_text(job), short_error(job.last_error)});
    }
    print_text_table(out, rows);
}

}  // namespace loupe
