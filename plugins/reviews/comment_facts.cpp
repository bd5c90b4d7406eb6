#include "comment_facts.hpp"

namespace loupe::reviews {

Json comments_json(soci::session& session, Identity& identity, const std::vector<Comment>& comments,
                   const std::map<int64_t, std::string>& test_ids) {
    CommentFacts facts;
    facts.test_ids = test_ids;
    std::vector<int64_t> ids, roots;
    auto add_user = [&](const std::optional<int64_t>& user) {
        if (user && !facts.users.contains(*user)) {
            facts.users[*user] = identity.user_ref(*user);
        }
    };
    for (const auto& comment : comments) {
        ids.push_back(comment.id);
        facts.public_ids[comment.id] = comment.public_id;
        add_user(comment.author_id);
        if (comment.thread_id && !facts.public_ids.contains(*comment.thread_id)) {
            roots.push_back(*comment.thread_id);
        }
    }
    for (auto& [id, public_id] : public_ids(session, roots)) {
        facts.public_ids[id] = public_id;
    }
    for (auto& reaction : reactions_of(session, ids)) {
        add_user(reaction.user_id);
        facts.reactions[reaction.comment_id].push_back(std::move(reaction));
    }
    Json out = Json::array();
    for (const auto& comment : comments) {
        out.push_back(reviews::comment_json(comment, facts));
    }
    return out;
}

Json comment_json(soci::session& session, Identity& identity, const Comment& comment,
                  const std::map<int64_t, std::string>& test_ids) {
    return std::move(comments_json(session, identity, {comment}, test_ids).front());
}

}  // namespace loupe::reviews
