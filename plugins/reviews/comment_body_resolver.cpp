#include "comment_body_resolver.hpp"

namespace loupe::reviews {
namespace {

// Mentions resolve to users who can see the project.
MentionLookup mentions_of(Identity& identity, const Project& project) {
    return [&identity, project](const std::string& slug) -> std::optional<MentionTarget> {
        auto user = identity.find_user(slug);
        if (!user || !identity.permissions(user->id, project).view) {
            return std::nullopt;
        }
        return MentionTarget{identity.user_ref(user->id)["id"].get<std::string>(), user->slug};
    };
}

}  // namespace

Json read_comment_body_field(JsonReader& reader) {
    const Json* body = reader.get("body");
    if (body == nullptr || body->is_null()) {
        reader.issue("body", expected_message("string", body));
    } else if (!body->is_string() && !body->is_object()) {
        reader.issue("body", kInvalidCommentBody);
    } else {
        return *body;
    }
    return nullptr;
}

ResolvedBody try_resolve_comment_body(Identity& identity, const Project& project,
                                      const Json& body) {
    ResolvedBody resolved;
    try {
        resolved.value = parse_comment_body(body, mentions_of(identity, project));
    } catch (const CommentBodyError& error) {
        resolved.error = error.what();
    }
    return resolved;
}

}  // namespace loupe::reviews
