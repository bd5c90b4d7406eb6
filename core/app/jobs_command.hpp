#pragma once
// `loupe jobs ...`. The implementation lives in libloupe-core (jobs/jobs_cli.cpp) so the unit
// tests can drive it without starting the executable:
//   int run_jobs_command(Database& database, const std::vector<std::string>& args,
//                        std::ostream& out, std::ostream& err);

#include "jobs/jobs_cli.hpp"
