#pragma once
// A request's comment body as the stored document: Markdown or a rich-text document, with
// `@slug` mentions of users who can see the project; an invalid body is a 400.

#include "comments/comment_body.hpp"
#include "loupe/auth/identity.hpp"
#include "loupe/http/json_reader.hpp"

namespace loupe::reviews {

struct ResolvedBody {
    CommentBody value;
    std::optional<std::string> error;  ///< why the body is refused (400), if it is
};

/// The request's required `body` field: a string or an object, else a validation issue and null.
Json read_comment_body_field(JsonReader& reader);

/// Never throws for a bad body: the route refuses it after its earlier checks.
ResolvedBody try_resolve_comment_body(Identity& identity, const Project& project, const Json& body);

}  // namespace loupe::reviews
