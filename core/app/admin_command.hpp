#pragma once
// `loupe admin ...`. The implementation lives in libloupe-core (identity/admin_cli.cpp) so the
// unit tests can drive it without starting the executable:
//   int run_admin_command(IdentityStore& identity, const std::vector<std::string>& args,
//                         std::ostream& out, std::ostream& err);

#include "identity/admin_cli.hpp"
