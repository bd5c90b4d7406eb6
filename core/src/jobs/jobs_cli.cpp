#include "jobs/jobs_cli.hpp"

#include <algorithm>
#include <limits>

#include "jobs/job_listing.hpp"
#include "jobs/jobs_output.hpp"
#include "loupe/cli/options.hpp"

namespace loupe {
namespace {

constexpr const char* usage =
    "usage: loupe jobs COMMAND [OPTIONS] [--json]\n\n"
    "commands:\n"
    "  list [--status queued|running|failed|done] [--kind K] [--limit N]\n"
    "      newest first; without --status every job that is not done; --limit defaults to 100\n"
    "  retry ID\n"
    "      queue a failed job again, its attempts reset\n"
    "\n--json prints exactly one JSON object.\n";

using cli::UsageError;

const cli::OptionSpec list_spec{.command = "jobs list", .optional = {"status", "kind", "limit"}};

int64_t positive_number(const std::string& text, const std::string& what) {
    return cli::integer_argument(text, what, 1, std::numeric_limits<int64_t>::max());
}

void list(Database& database, const std::vector<std::string>& words, bool json, std::ostream& out) {
    const cli::Options arguments(list_spec, words);
    JobFilter filter;
    filter.status = arguments.optional_value("status");
    filter.kind = arguments.optional_value("kind");
    if (auto limit = arguments.optional_value("limit")) {
        filter.limit = positive_number(*limit, "--limit");
    }
    static const std::vector<std::string> statuses{"queued", "running", "failed", "done"};
    if (filter.status &&
        std::find(statuses.begin(), statuses.end(), *filter.status) == statuses.end()) {
        throw UsageError("invalid status \"" + *filter.status +
                         "\": use queued, running, failed or done");
    }
    const auto jobs = list_jobs(database, filter);
    if (json) {
        Json list = Json::array();
        for (const auto& job : jobs) {
            list.push_back(job_json(job));
        }
        out << Json{{"jobs", list}}.dump() << "\n";
    } else if (jobs.empty()) {
        out << "No jobs\n";
    } else {
        print_job_table(out, jobs);
    }
}

void retry(Database& database, const std::vector<std::string>& words, bool json,
           std::ostream& out) {
    if (words.empty()) {
        throw UsageError("`jobs retry` needs the job's ID");
    }
    if (words.size() > 1) {
        throw UsageError("unexpected argument \"" + words[1] + "\" for `jobs retry`");
    }
    const auto job = retry_failed_job(database, positive_number(words[0], "the job ID"));
    if (json) {
        out << Json{{"job", job_json(job)}}.dump() << "\n";
    } else {
        out << "Job " << job.id << " (" << job.kind << ") queued again\n";
    }
}

}  // namespace

int run_jobs_command(Database& database, const std::vector<std::string>& args, std::ostream& out,
                     std::ostream& err) {
    const cli::CommandWords line = cli::command_words(args, "jobs");
    const auto& words = line.words;
    const bool json = line.json;
    return cli::run_command("loupe jobs", usage, words, out, err, [&] {
        if (words.empty()) {
            throw UsageError("missing command");
        }
        const std::vector<std::string> rest(words.begin() + 1, words.end());
        if (words[0] == "list") {
            list(database, rest, json, out);
        } else if (words[0] == "retry") {
            retry(database, rest, json, out);
        } else {
            throw UsageError("unknown command \"" + words[0] + "\"");
        }
        return 0;
    });
}

}  // namespace loupe
