#pragma once
// The `git_repository_links` rows. A project is linked to at most
// one repository; several projects may share a repository (then tokenless callers name theirs).

#include <soci/soci.h>

#include <optional>
#include <string>
#include <vector>

#include "loupe/git/git_providers.hpp"

namespace loupe::git {

const char* provider_name(Provider provider);
/// True for OWNER/NAME of a GitHub repository, or the GROUP/…/NAME path of a GitLab project.
bool repository_name_fits(Provider provider, const std::string& repository);
/// How a repository is matched: without regard to case, as both providers do.
std::string repository_key(const std::string& repository);

std::optional<RepositoryLink> find_link(soci::session& session, int64_t project_id);
/// The links to this repository (matched without regard to case, as both providers do).
std::vector<RepositoryLink> links_to(soci::session& session, Provider provider,
                                     const std::string& repository);
std::vector<RepositoryLink> all_links(soci::session& session);
/// Creates or replaces the project's link.
void save_link(soci::session& session, const RepositoryLink& link, int64_t now);
/// False when the project had no link.
bool delete_link(soci::session& session, int64_t project_id);

}  // namespace loupe::git
