#pragma once
// Keeps the media comment of a pull request true: after every change to a project's media on a
// pull request (an upload finalized, a staged media adopted, a description edited, a media
// deleted), the project's section of the comment is rewritten from the media as they now are, in
// the same transaction; the git plugin (git.PullRequestComments) posts it from a durable job.
// Without the git plugin nothing is posted.

#include <soci/soci.h>

#include <cstdint>
#include <functional>

#include "loupe/git/pull_request_comments.hpp"
#include "loupe/host.hpp"
#include "media_json.hpp"

namespace loupe::media {

/// The comment's topic in git.PullRequestComments.
inline constexpr const char* media_comment_topic = "media";
/// At most this many media are listed (the newest; a comment has a size limit).
inline constexpr int64_t max_listed_media = 20;

class PullRequestMedia {
public:
    PullRequestMedia(Host& host, git::PullRequestComments* comments,
                     std::function<MediaUrls()> urls);

    /// Rewrites project `project_id`'s media of pull request `pr_number` in its comment.
    void refresh(soci::session& session, int64_t project_id, int64_t pr_number);

private:
    Host& host_;
    git::PullRequestComments* comments_;
    std::function<MediaUrls()> urls_;
};

}  // namespace loupe::media
