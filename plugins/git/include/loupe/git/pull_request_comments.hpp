#pragma once
// Comments other plugins keep on pull requests, each apart from the builds' comment: the media
// plugin lists a pull request's media in one (media have no build behind them). A comment is
// named by its topic ("media"); each project linked to the repository writes its own section,
// and the comment shows the sections of every project, in project order, for the projects
// whose `prCommentEnabled` is on.
//
// The git plugin posts it from a durable job, as it posts the builds' comment: created once,
// then edited in place; an unchanged body is not sent again; a comment someone deleted is not
// posted again. When every section is gone, a comment already posted says so; one never posted
// is not posted.
//
// Look it up at install time (the git plugin installs before):
//   `auto* comments = host.services().find<git::PullRequestComments>();`
// OWNERSHIP: owned by the git plugin for the process lifetime. THREADS: thread-safe.
// VERSIONING: a new method is a minor change; changing a signature or a meaning bumps
// service_version.

#include <soci/soci.h>

#include <cstdint>
#include <string>

namespace loupe::git {

class PullRequestComments {
public:
    static constexpr const char* service_name = "git.PullRequestComments";
    static constexpr int service_version = 1;

    virtual ~PullRequestComments() = default;

    /// Sets project `project_id`'s section (Markdown, empty to remove it) of the comment `topic`
    /// on pull request `pr_number` of the repository the project is linked to, in the caller's
    /// transaction, and queues the post. False when the project is linked to no repository
    /// (nothing is stored).
    virtual bool set_section(soci::session& session, int64_t project_id, int64_t pr_number,
                             const std::string& topic, const std::string& markdown) = 0;
};

}  // namespace loupe::git
