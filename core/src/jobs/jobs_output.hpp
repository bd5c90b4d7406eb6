#pragma once
// What `loupe jobs` prints: one JSON object with --json, otherwise a table for people.

#include <ostream>
#include <vector>

#include "jobs/job_listing.hpp"

namespace loupe {

Json job_json(const JobRow& job);

void print_job_table(std::ostream& out, const std::vector<JobRow>& jobs);

}  // namespace loupe
