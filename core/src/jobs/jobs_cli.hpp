#pragma once
// `loupe jobs list|retry`: what the durable job queue holds, and a second chance for failed jobs.

#include <ostream>
#include <string>
#include <vector>

#include "loupe/db/database.hpp"
#include "loupe/export.hpp"

namespace loupe {

/// Runs one jobs command. `args` are the words after `jobs` (a leading "jobs" is skipped).
/// With `--json`, prints exactly one JSON object on `out`; otherwise text for people.
/// Returns 0 on success, 2 for a usage error and 1 for a refused operation (unknown job, job
/// not failed), each with its message on `err`. Database failures propagate as exceptions.
LOUPE_API int run_jobs_command(Database& database, const std::vector<std::string>& args,
                               std::ostream& out, std::ostream& err);

}  // namespace loupe
