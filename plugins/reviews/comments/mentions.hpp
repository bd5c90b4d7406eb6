#pragma once
// "@slug" in Markdown comments: resolved to users of the account and kept as mention nodes.

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "loupe/json.hpp"

namespace loupe::reviews {

/// The user a mention names: user id (a string) and slug, stored as the node's id and label.
struct MentionTarget {
    std::string id;
    std::string label;
};

/// Resolves "@slug" in Markdown to a user of the account, or nullopt (then it stays text).
using MentionLookup = std::function<std::optional<MentionTarget>(const std::string& slug)>;

/// Asks the lookup at most once per slug and about at most 1,301 slugs, and makes at most 301
/// mentions: a comment past either bound is too large whatever the rest would resolve to.
class MentionResolver {
public:
    explicit MentionResolver(const MentionLookup& lookup) : lookup_(lookup) {}
    /// The user `slug` names, for one more mention; nullopt past the bound.
    std::optional<MentionTarget> resolve(const std::string& slug);

private:
    const MentionLookup& lookup_;
    std::map<std::string, std::optional<MentionTarget>> resolved_;
    size_t mentions_ = 0;
};

/// Turns every "@slug" of the inline nodes of one paragraph or heading into a mention node
/// {"type":"mention","attrs":{"id","label"}} when `resolver` knows the user. A mention starts
/// after a space, punctuation or the start of the block (not inside "me@example.com"), its slug
/// is 1 to 48 letters, digits and inner hyphens (matched case-insensitively), and it keeps the
/// marks of its text. Text in code or in a link is left alone.
Json link_mentions(const Json& inlines, MentionResolver& resolver);

}  // namespace loupe::reviews
