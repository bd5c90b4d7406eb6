#include "pull_request/pull_request_media.hpp"

#include <algorithm>
#include <utility>

#include "content/media_content.hpp"
#include "pull_request/media_table.hpp"
#include "store/media_store.hpp"

namespace loupe::media {

PullRequestMedia::PullRequestMedia(Host& host, git::PullRequestComments* comments,
                                   std::function<MediaUrls()> urls)
    : host_(host), comments_(comments), urls_(std::move(urls)) {}

void PullRequestMedia::refresh(soci::session& session, int64_t project_id, int64_t pr_number) {
    if (comments_ == nullptr) {
        return;
    }
    const auto project = host_.identity().find_project(project_id);
    if (!project) {
        return;
    }
    MediaQuery query;
    query.project_id = project_id;
    query.pr_number = pr_number;
    query.limit = max_listed_media;
    auto rows = list_media(session, query).first;  // newest first, with an uploaded version
    std::reverse(rows.begin(), rows.end());
    std::vector<int64_t> ids;
    ids.reserve(rows.size());
    for (const auto& media : rows) {
        ids.push_back(media.id);
    }
    auto versions = versions_of_media(session, ids);
    const auto urls = urls_();
    std::vector<ListedMedia> listed;
    for (const auto& media : rows) {
        const auto& all = versions[media.id];
        if (all.empty()) {
            continue;
        }
        const auto& shown = described_version(all);
        listed.push_back(ListedMedia{media.id, media.name, media.state, media.description,
                                     urls.share_url(media, *project), urls.file_url(shown),
                                     is_video_type(shown.content_type), shown.number});
    }
    comments_->set_section(session, project_id, pr_number, media_comment_topic,
                           media_comment_markdown(listed));
}

}  // namespace loupe::media
