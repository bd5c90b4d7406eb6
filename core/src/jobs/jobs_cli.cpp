#include "jobs/jobs_cli.hpp"

#include <algorithm>
#include <charconv>

#include "identity/admin_arguments.hpp"
#include "jobs/job_listing.hpp"
#include "jobs/jobs_output.hpp"

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

const AdminCommandSpec list_spec{"jobs", "list",
                                 {},     {"status", "kind", "limit"},
                                 {},     "list [--status S] [--kind K] [--limit N]"};

int64_t positive_number(const std::string& text, const std::string& what) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value <= 0) {
        throw AdminUsageError(what + " must be a positive integer, got \"" + text + "\"");
    }
    return value;
}

void list(Database& database, const std::vector<std::string>& words, bool json, std::ostream& out) {
    const AdminArguments arguments(list_spec, words);
    JobFilter filter;
    filter.status = arguments.optional_value("status");
    filter.kind = arguments.optional_value("kind");
    if (auto limit = arguments.optional_value("limit")) {
        filter.limit = positive_number(*limit, "--limit");
    }
    static const std::vector<std::string> statuses{"queued", "running", "failed", "done"};
    if (filter.status &&
        std::find(statuses.begin(), statuses.end(), *filter.status) == statuses.end()) {
        throw AdminUsageError("invalid status \"" + *filter.status +
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
        throw AdminUsageError("`jobs retry` needs the job's ID");
    }
    if (words.size() > 1) {
        throw AdminUsageError("unexpected argument \"" + words[1] + "\" for `jobs retry`");
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
    std::vector<std::string> words;
    bool json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i == 0 && args[i] == "jobs") {
            continue;
        }
        if (args[i] == "--json") {
            json = true;
        } else {
            words.push_back(args[i]);
        }
    }
    if ((!words.empty() && (words[0] == "help" || words[0] == "-h")) ||
        std::find(words.begin(), words.end(), "--help") != words.end()) {
        out << usage;
        return 0;
    }
    try {
        if (words.empty()) {
            throw AdminUsageError("missing command");
        }
        const std::vector<std::string> rest(words.begin() + 1, words.end());
        if (words[0] == "list") {
            list(database, rest, json, out);
        } else if (words[0] == "retry") {
            retry(database, rest, json, out);
        } else {
            throw AdminUsageError("unknown command \"" + words[0] + "\"");
        }
        return 0;
    } catch (const AdminUsageError& error) {
        err << "loupe jobs: " << error.what() << "\n\n" << usage;
        return 2;
    } catch (const JobCommandError& error) {
        err << "loupe jobs: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace loupe
