#pragma once
// The Argos client's `Media` and `MediaVersion` answers.

#include <string>
#include <vector>

#include "loupe/auth/identity.hpp"
#include "loupe/json.hpp"
#include "store/media_store.hpp"

namespace loupe::media {

/// Where answers point: the media listener (file bytes, public share pages) and the review page
/// (team media).
struct MediaUrls {
    std::string files_base;   ///< the media listener's public URL
    std::string review_base;  ///< the review page's public URL
    std::string file_url(const VersionRow& version) const {
        return files_base + "/files/" + version.file_token;
    }
    /// The media's page in the review page: behind sign-in and the project's `view`.
    std::string team_page_url(const MediaRow& media, const Project& project) const {
        return review_base + "/" + project.account_slug + "/" + project.name + "/media/" +
               std::to_string(media.id);
    }
    /// Where the media is shared: a public media's page on the media listener, for anyone with
    /// the link; a team media's page in the review page.
    std::string share_url(const MediaRow& media, const Project& project) const {
        if (media.visibility == "public") {
            return files_base + "/m/" + media.share_token;
        }
        return team_page_url(media, project);
    }
};

/// `versions` newest first; the media (of `project`) is described at `described` (one of them).
Json media_json(const MediaRow& media, const Project& project, const VersionRow& described,
                const std::vector<VersionRow>& versions, const MediaUrls& urls);
/// The version to describe: the newest uploaded one, else the newest.
const VersionRow& described_version(const std::vector<VersionRow>& versions);
Json version_json(const VersionRow& version, const MediaUrls& urls);
/// Markdown embedding the media: its picture linking to its share page.
std::string media_markdown(const MediaRow& media, const Project& project, const VersionRow& version,
                           const MediaUrls& urls);

}  // namespace loupe::media
