#include "store/comments.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"

namespace loupe::reviews {
namespace {

constexpr const char* comment_columns =
    "c.id, c.public_id, c.build_id, c.test_id, c.media_id, c.media_version_id, c.project_id, "
    "c.thread_id, c.review_id, "
    "c.author_id, c.body, "
    "c.text, c.screenshot_diff_id, c.anchor, c.resolved_at, c.edited_at, c.deleted_at, "
    "c.created_at, CASE WHEN r.state = 'pending' THEN 1 ELSE 0 END AS pending";

Comment read_comment(const soci::row& row) {
    RowReader r(row);
    Comment c;
    c.id = r.int64("id");
    c.public_id = r.text("public_id");
    c.build_id = r.optional_int("build_id");
    c.test_id = r.optional_int("test_id");
    c.media_id = r.optional_int("media_id");
    c.media_version_id = r.optional_int("media_version_id");
    c.project_id = r.int64("project_id");
    c.thread_id = r.optional_int("thread_id");
    c.review_id = r.optional_int("review_id");
    c.author_id = r.optional_int("author_id");
    c.body = r.json("body");
    c.text = r.text("text");
    c.screenshot_diff_id = r.optional_int("screenshot_diff_id");
    c.anchor = r.json("anchor");
    c.resolved_at = r.optional_int("resolved_at");
    c.edited_at = r.optional_int("edited_at");
    c.deleted_at = r.optional_int("deleted_at");
    c.created_at = r.int64("created_at");
    c.pending = r.flag("pending");
    return c;
}

template <class... Values>
std::vector<Comment> select_comments(soci::session& session, const std::string& tail,
                                     const Values&... values) {
    soci::statement statement(session);
    statement.alloc();
    statement.prepare(std::string("SELECT ") + comment_columns +
                      " FROM comments c LEFT JOIN reviews r ON r.id = c.review_id " + tail);
    (statement.exchange(soci::use(values)), ...);
    soci::row row;
    statement.exchange(soci::into(row));
    statement.define_and_bind();
    std::vector<Comment> comments;
    if (statement.execute(true)) {
        do {
            comments.push_back(read_comment(row));
        } while (statement.fetch());
    }
    return comments;
}

std::optional<Comment> first(std::vector<Comment> comments) {
    if (comments.empty()) {
        return std::nullopt;
    }
    return std::move(comments.front());
}

/// The column naming the subject: a fixed name, never input.
std::string subject_column(const CommentSubject& subject) {
    switch (subject.kind) {
        case CommentSubject::Kind::build:
            return "c.build_id";
        case CommentSubject::Kind::test:
            return "c.test_id";
        case CommentSubject::Kind::media:
            return "c.media_id";
    }
    return "c.build_id";
}

}  // namespace

// Optional ids travel as 0 and become NULL through NULLIF (ids start at 1).
void insert_comment(soci::session& session, Comment& c) {
    const int64_t build = c.build_id.value_or(0), test = c.test_id.value_or(0),
                  media = c.media_id.value_or(0), version = c.media_version_id.value_or(0),
                  thread = c.thread_id.value_or(0), review = c.review_id.value_or(0),
                  author = c.author_id.value_or(0), diff = c.screenshot_diff_id.value_or(0);
    const std::string body = c.body.dump();
    const std::string anchor = c.anchor.is_null() ? "" : c.anchor.dump();
    session << "INSERT INTO comments (public_id, build_id, test_id, media_id, media_version_id, "
               "project_id, thread_id, "
               "review_id, author_id, body, text, screenshot_diff_id, anchor, created_at) VALUES "
               "(:pid, NULLIF(:b, CAST(0 AS BIGINT)), NULLIF(:test, CAST(0 AS BIGINT)), "
               "NULLIF(:media, CAST(0 AS BIGINT)), NULLIF(:version, CAST(0 AS BIGINT)), :p, "
               "NULLIF(:t, CAST(0 AS BIGINT)), NULLIF(:r, CAST(0 AS BIGINT)), NULLIF(:a, "
               "CAST(0 AS BIGINT)), :body, :text, NULLIF(:d, CAST(0 AS BIGINT)), NULLIF(:anchor, "
               "''), :created) RETURNING id",
        soci::use(c.public_id), soci::use(build), soci::use(test), soci::use(media),
        soci::use(version), soci::use(c.project_id), soci::use(thread), soci::use(review),
        soci::use(author), soci::use(body), soci::use(c.text), soci::use(diff), soci::use(anchor),
        soci::use(c.created_at), soci::into(c.id);
}

std::optional<Comment> find_comment(soci::session& session, const CommentSubject& subject,
                                    const std::string& public_id) {
    return first(select_comments(session,
                                 "WHERE " + subject_column(subject) + " = :s AND c.public_id = :p",
                                 subject.id, public_id));
}

std::optional<Comment> find_comment(soci::session& session, int64_t id) {
    return first(select_comments(session, "WHERE c.id = :id", id));
}

std::vector<Comment> visible_comments(soci::session& session, const CommentSubject& subject,
                                      int64_t viewer) {
    return select_comments(session,
                           "WHERE " + subject_column(subject) +
                               " = :s AND c.deleted_at IS NULL AND (c.review_id IS NULL OR "
                               "r.state <> 'pending' OR r.user_id = :viewer) ORDER BY "
                               "c.created_at, c.id",
                           subject.id, viewer);
}

std::vector<Comment> review_comments(soci::session& session, int64_t review_id) {
    return select_comments(
        session, "WHERE c.review_id = :r AND c.deleted_at IS NULL ORDER BY c.created_at, c.id",
        review_id);
}

std::vector<std::pair<int64_t, std::string>> public_ids(soci::session& session,
                                                        const std::vector<int64_t>& ids) {
    std::vector<std::pair<int64_t, std::string>> out;
    for_each_row_of_ids(session,
                        "SELECT id, public_id FROM comments WHERE id IN (SELECT CAST(value AS "
                        "BIGINT) FROM {{json_rows:ids}})",
                        ids, [&](const soci::row& row) {
                            RowReader r(row);
                            out.emplace_back(r.int64("id"), r.text("public_id"));
                        });
    return out;
}

void update_comment_body(soci::session& session, int64_t id, const Json& body,
                         const std::string& text, int64_t at) {
    const std::string body_text = body.dump();
    session << "UPDATE comments SET body = :body, text = :text, edited_at = :at WHERE id = :id",
        soci::use(body_text), soci::use(text), soci::use(at), soci::use(id);
}

void set_resolved(soci::session& session, int64_t root_id, std::optional<int64_t> at) {
    const int64_t when = at.value_or(0);
    session << "UPDATE comments SET resolved_at = NULLIF(:at, CAST(0 AS BIGINT)) WHERE id = :id",
        soci::use(when), soci::use(root_id);
}

void mark_deleted(soci::session& session, int64_t id, int64_t at) {
    session << "UPDATE comments SET deleted_at = :at WHERE id = :id AND deleted_at IS NULL",
        soci::use(at), soci::use(id);
}

int64_t delete_media_comments(soci::session& session, int64_t media_id) {
    // Replies first: a root's replies point at it.
    long long count = 0;
    session << "SELECT COUNT(*) FROM comments WHERE media_id = :media", soci::use(media_id),
        soci::into(count);
    session << "DELETE FROM comment_reactions WHERE comment_id IN (SELECT id FROM comments WHERE "
               "media_id = :media)",
        soci::use(media_id);
    session << "DELETE FROM thread_subscriptions WHERE comment_id IN (SELECT id FROM comments "
               "WHERE media_id = :media)",
        soci::use(media_id);
    session << "DELETE FROM comments WHERE media_id = :media AND thread_id IS NOT NULL",
        soci::use(media_id);
    session << "DELETE FROM comments WHERE media_id = :media", soci::use(media_id);
    return count;
}

std::optional<int64_t> user_of_personal_account(soci::session& session, int64_t account_id) {
    int64_t user_id = 0;
    soci::indicator indicator = soci::i_null;
    session << "SELECT user_id FROM accounts WHERE id = :id AND kind = 'user'",
        soci::use(account_id), soci::into(user_id, indicator);
    if (!session.got_data() || indicator != soci::i_ok) {
        return std::nullopt;
    }
    return user_id;
}

}  // namespace loupe::reviews
