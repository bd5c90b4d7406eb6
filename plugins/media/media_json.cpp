#include "media_json.hpp"

#include <algorithm>

#include "content/media_content.hpp"

namespace loupe::media {
namespace {

Json optional_json(const std::optional<std::string>& value) {
    return value ? Json(*value) : Json();
}

Json optional_json(const std::optional<int64_t>& value) {
    return value ? Json(*value) : Json();
}

/// Markdown link text: brackets, backslashes and pipes escaped, line breaks as <br>.
std::string alt_text(const std::string& name) {
    std::string text;
    for (char c : name) {
        if (c == '[' || c == ']' || c == '\\' || c == '|') {
            text += '\\';
            text += c;
        } else if (c == '\n') {
            text += "<br>";
        } else if (c != '\r') {
            text += c;
        }
    }
    return text;
}

}  // namespace

const VersionRow& described_version(const std::vector<VersionRow>& versions) {
    auto uploaded = std::find_if(versions.begin(), versions.end(),
                                 [](const VersionRow& v) { return v.uploaded_at.has_value(); });
    return uploaded != versions.end() ? *uploaded : versions.front();
}

std::string media_markdown(const MediaRow& media, const Project& project, const VersionRow& version,
                           const MediaUrls& urls) {
    const auto alt = alt_text(media.name);
    if (is_video_type(version.content_type)) {
        // No poster frame is made: a play link to the share page.
        return "[\u25B6 " + alt + "](" + urls.share_url(media, project) + ")";
    }
    return "[![" + alt + "](" + urls.file_url(version) + ")](" + urls.share_url(media, project) +
           ")";
}

Json version_json(const VersionRow& version, const MediaUrls& urls) {
    return {{"id", std::to_string(version.id)},
            {"number", version.number},
            {"fileUrl", urls.file_url(version)},
            {"posterUrl", nullptr},
            {"contentType", version.content_type},
            {"sizeBytes", version.size_bytes},
            {"width", optional_json(version.width)},
            {"height", optional_json(version.height)},
            {"expiresAt", nullptr},
            {"createdAt", iso_time(version.created_at)}};
}

Json media_json(const MediaRow& media, const Project& project, const VersionRow& described,
                const std::vector<VersionRow>& versions, const MediaUrls& urls) {
    const auto uploaded = std::count_if(versions.begin(), versions.end(),
                                        [](const VersionRow& v) { return v.uploaded_at; });
    return {{"id", std::to_string(media.id)},
            {"name", media.name},
            {"state", optional_json(media.state)},
            {"description", optional_json(media.description)},
            {"stage", media.pr_number ? "published" : "staged"},
            {"branch", optional_json(media.branch)},
            {"prNumber", optional_json(media.pr_number)},
            {"url", urls.share_url(media, project)},
            {"markdown", media_markdown(media, project, described, urls)},
            {"version", described.number},
            {"versionCount", std::max<int64_t>(uploaded, 1)},
            {"fileUrl", urls.file_url(described)},
            {"posterUrl", nullptr},
            {"contentType", described.content_type},
            {"sizeBytes", described.size_bytes},
            {"width", optional_json(described.width)},
            {"height", optional_json(described.height)},
            {"visibility", media.visibility},
            {"status", described.uploaded_at ? "ready" : "pending"},
            {"expiresAt", nullptr},
            {"createdAt", iso_time(media.created_at)}};
}

}  // namespace loupe::media
