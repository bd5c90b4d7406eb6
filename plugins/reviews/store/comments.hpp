#pragma once
// Comment rows. A comment is posted on a build or on a test (exactly one). A root comment starts
// a thread; a reply points at its root. A comment attached to a review is a draft (pending)
// until that review is submitted.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

/// What a comment is posted on: a build or a test of the project.
struct CommentSubject {
    enum class Kind { build, test, media };
    Kind kind = Kind::build;
    int64_t id = 0;

    static CommentSubject build(int64_t build_id) { return {Kind::build, build_id}; }
    static CommentSubject test(int64_t test_id) { return {Kind::test, test_id}; }
    static CommentSubject media(int64_t media_id) { return {Kind::media, media_id}; }
    bool operator==(const CommentSubject&) const = default;
};

struct Comment {
    int64_t id = 0;
    std::string public_id;            ///< "comment-…", what the API shows and accepts
    std::optional<int64_t> build_id;  ///< set on a build's comments
    std::optional<int64_t> test_id;   ///< set on a test's comments
    std::optional<int64_t> media_id;  ///< set on a media's comments (the media plugin's id)
    /// A media's comments: the version its author was looking at (its newest uploaded one).
    std::optional<int64_t> media_version_id;
    int64_t project_id = 0;
    std::optional<int64_t> thread_id;  ///< the root's id, for replies
    std::optional<int64_t> review_id;
    std::optional<int64_t> author_id;
    Json body;  ///< the rich-text document
    std::string text;
    std::optional<int64_t> screenshot_diff_id;
    Json anchor;  ///< {type: point, x, y} | {type: lines, from, to} | null
    std::optional<int64_t> resolved_at;
    std::optional<int64_t> edited_at;
    std::optional<int64_t> deleted_at;
    int64_t created_at = 0;
    bool pending = false;  ///< attached to a review that is still a draft

    CommentSubject subject() const {
        if (build_id) {
            return CommentSubject::build(*build_id);
        }
        return media_id ? CommentSubject::media(*media_id)
                        : CommentSubject::test(test_id.value_or(0));
    }
    void set_subject(const CommentSubject& subject) {
        build_id.reset();
        test_id.reset();
        media_id.reset();
        switch (subject.kind) {
            case CommentSubject::Kind::build:
                build_id = subject.id;
                break;
            case CommentSubject::Kind::test:
                test_id = subject.id;
                break;
            case CommentSubject::Kind::media:
                media_id = subject.id;
                break;
        }
    }
};

/// Inserts the comment (public_id set by the caller); fills its id.
void insert_comment(soci::session& session, Comment& comment);
/// The comment on `subject` with this public id (deleted ones included).
std::optional<Comment> find_comment(soci::session& session, const CommentSubject& subject,
                                    const std::string& public_id);
std::optional<Comment> find_comment(soci::session& session, int64_t id);
/// The comments on `subject` that `viewer` may see: not deleted, and not attached to a review,
/// or attached to a submitted review, or to the viewer's own draft. Oldest first.
std::vector<Comment> visible_comments(soci::session& session, const CommentSubject& subject,
                                      int64_t viewer);
/// The comments written in a review (not deleted), oldest first.
std::vector<Comment> review_comments(soci::session& session, int64_t review_id);
/// Public ids of comments by id (the roots of replies).
std::vector<std::pair<int64_t, std::string>> public_ids(soci::session& session,
                                                        const std::vector<int64_t>& ids);
void update_comment_body(soci::session& session, int64_t id, const Json& body,
                         const std::string& text, int64_t at);
void set_resolved(soci::session& session, int64_t root_id, std::optional<int64_t> at);
void mark_deleted(soci::session& session, int64_t id, int64_t at);
/// Deletes every comment on a media (the media was deleted), their reactions and follows
/// included; the number of comments.
int64_t delete_media_comments(soci::session& session, int64_t media_id);
/// The user whose personal account this is (a mention names a user by that account's id).
std::optional<int64_t> user_of_personal_account(soci::session& session, int64_t account_id);

}  // namespace loupe::reviews
