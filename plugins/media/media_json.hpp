#pragma once
// The Argos client's `Media` and `MediaVersion` answers.

#include <string>
#include <vector>

#include "loupe/json.hpp"
#include "store/media_store.hpp"

namespace loupe::media {

/// Where answers point: the review host (share pages) and the media listener (file bytes).
struct MediaUrls {
    std::string files_base;  ///< the media listener's public URL
    std::string file_url(const VersionRow& version) const {
        return files_base + "/files/" + version.file_token;
    }
    std::string share_url(const MediaRow& media) const {
        return files_base + "/m/" + media.share_token;
    }
};

/// `versions` newest first; the media is described at `described` (one of them).
Json media_json(const MediaRow& media, const VersionRow& described,
                const std::vector<VersionRow>& versions, const MediaUrls& urls);
/// The version to describe: the newest uploaded one, else the newest.
const VersionRow& described_version(const std::vector<VersionRow>& versions);
Json version_json(const VersionRow& version, const MediaUrls& urls);
/// Markdown embedding the media: its picture linking to its share page.
std::string media_markdown(const MediaRow& media, const VersionRow& version, const MediaUrls& urls);

}  // namespace loupe::media
