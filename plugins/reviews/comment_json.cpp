#include "comment_json.hpp"

namespace loupe::reviews {
namespace {

Json optional_time(const std::optional<int64_t>& at) {
    return at ? Json(iso_time(*at)) : Json(nullptr);
}

Json user_or_null(const CommentFacts& facts, const std::optional<int64_t>& user_id) {
    if (!user_id) {
        return nullptr;
    }
    auto it = facts.users.find(*user_id);
    return it == facts.users.end() ? Json(nullptr) : it->second;
}

// Groups ordered by each emoji's first use, users by reaction time.
Json reactions_json(const CommentFacts& facts, int64_t comment_id) {
    Json groups = Json::array();
    auto it = facts.reactions.find(comment_id);
    if (it == facts.reactions.end()) {
        return groups;
    }
    std::map<std::string, std::size_t> index;
    for (const auto& reaction : it->second) {
        auto [slot, added] = index.try_emplace(reaction.emoji, groups.size());
        if (added) {
            groups.push_back({{"emoji", reaction.emoji}, {"count", 0}, {"users", Json::array()}});
        }
        auto& group = groups[slot->second];
        group["count"] = group["count"].get<int64_t>() + 1;
        group["users"].push_back(user_or_null(facts, reaction.user_id));
    }
    return groups;
}

}  // namespace

Json comment_json(const Comment& comment, const CommentFacts& facts) {
    Json thread = nullptr;
    if (comment.thread_id) {
        if (auto it = facts.public_ids.find(*comment.thread_id); it != facts.public_ids.end()) {
            thread = it->second;
        }
    }
    Json test = nullptr;
    if (comment.test_id) {
        if (auto it = facts.test_ids.find(*comment.test_id); it != facts.test_ids.end()) {
            test = it->second;
        }
    }
    return Json{
        {"id", comment.public_id},
        {"buildId", comment.build_id ? Json(std::to_string(*comment.build_id)) : Json()},
        {"threadId", thread},
        {"body", comment.body},
        {"text", comment.text},
        {"author", user_or_null(facts, comment.author_id)},
        {"screenshotDiffId",
         comment.screenshot_diff_id ? Json(std::to_string(*comment.screenshot_diff_id)) : Json()},
        {"anchor", comment.anchor},
        {"pending", comment.pending},
        {"resolvedAt", optional_time(comment.resolved_at)},
        {"editedAt", optional_time(comment.edited_at)},
        {"createdAt", iso_time(comment.created_at)},
        {"reactions", reactions_json(facts, comment.id)},
        {"testId", test},
        {"mediaId", comment.media_id ? Json(std::to_string(*comment.media_id)) : Json()},
        {"mediaVersionId",
         comment.media_version_id ? Json(std::to_string(*comment.media_version_id)) : Json()}};
}

}  // namespace loupe::reviews
