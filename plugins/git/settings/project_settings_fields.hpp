#pragma once
// The git plugin's settings in the Project resource, each changeable by a PATCH of the project
// (Argos's names): `tokenlessAuthEnabled`, `githubActionsOidcEnabled`, and Loupe's
// `gitlabCiOidcEnabled`; what is posted in pull requests: `prCommentEnabled` (true by default)
// and `summaryCheck` (always | never | auto, `auto` by default).

#include "loupe/auth/project_fields.hpp"

namespace loupe::git {

void add_project_settings_fields(ProjectFields& fields);

}  // namespace loupe::git
