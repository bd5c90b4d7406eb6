#include "store/pull_requests.hpp"

#include <set>
#include <utility>

#include "loupe/db/dialect.hpp"
#include "loupe/db/nullable.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::git {
namespace {

constexpr const char* post_columns =
    "id, kind, provider, repository_key, target, project_id, pr_number, head_sha, remote_id, "
    "remote_gone, pushed_body, topic";

const char* kind_name(PostKind kind) {
    return kind == PostKind::check ? "check" : "comment";
}

PullRequestBuild read_pull_request_build(const soci::row& row) {
    RowReader read(row);
    return PullRequestBuild{read.int64("build_id"),  read.int64("project_id"),
                            read.text("provider"),   read.text("repository_key"),
                            read.int64("pr_number"), read.text("head_sha"),
                            read.text("name"),       read.int64("created_at")};
}

}  // namespace

void record_pull_request_build(soci::session& session, const PullRequestBuild& build) {
    session << "INSERT INTO git_pull_request_builds (build_id, project_id, provider, "
               "repository_key, pr_number, head_sha, name, created_at) VALUES (:build, :project, "
               ":provider, :repository, :pr, :head, :name, :created) ON CONFLICT (build_id) DO "
               "NOTHING",
        soci::use(build.build_id), soci::use(build.project_id), soci::use(build.provider),
        soci::use(build.repository_key), soci::use(build.pr_number), soci::use(build.head_sha),
        soci::use(build.name), soci::use(build.created_at);
}

std::optional<std::string> pull_request_head(soci::session& session, const std::string& provider,
                                             const std::string& repository_key, int64_t pr_number) {
    std::string head;
    session << "SELECT head_sha FROM git_pull_request_builds WHERE provider = :provider AND "
               "repository_key = :repository AND pr_number = :pr ORDER BY build_id DESC LIMIT 1",
        soci::use(provider), soci::use(repository_key), soci::use(pr_number), soci::into(head);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return head;
}

std::vector<PullRequestBuild> head_builds(soci::session& session, const std::string& provider,
                                          const std::string& repository_key,
                                          const std::string& head_sha) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT build_id, project_id, provider, repository_key, pr_number, "
                            "head_sha, name, created_at FROM git_pull_request_builds WHERE "
                            "provider = :provider AND repository_key = :repository AND head_sha "
                            "= :head ORDER BY build_id DESC",
         soci::use(provider), soci::use(repository_key), soci::use(head_sha));
    std::vector<PullRequestBuild> newest;
    std::set<std::pair<int64_t, std::string>> seen;
    for (const auto& row : rows) {
        auto build = read_pull_request_build(row);
        if (seen.insert({build.project_id, build.name}).second) {
            newest.push_back(std::move(build));
        }
    }
    return newest;
}

PostRequest request_post(soci::session& session, const PullRequestPost& post, int64_t now) {
    PostRequest request;
    const std::string kind = kind_name(post.kind);
    Nullable topic(post.topic);
    session << "INSERT INTO git_pull_request_posts (kind, provider, repository_key, target, "
               "project_id, pr_number, head_sha, topic, wanted_seq, updated_at) VALUES (:kind, "
               ":provider, :repository, :target, :project, :pr, :head, :topic, 1, :now) ON "
               "CONFLICT "
               "(kind, provider, repository_key, target) DO UPDATE SET wanted_seq = "
               "git_pull_request_posts.wanted_seq + 1, project_id = excluded.project_id, "
               "pr_number = excluded.pr_number, head_sha = excluded.head_sha, updated_at = "
               "excluded.updated_at RETURNING id, wanted_seq",
        soci::use(kind), soci::use(post.provider), soci::use(post.repository_key),
        soci::use(post.target), soci::use(post.project_id), soci::use(post.pr_number),
        soci::use(post.head_sha), soci::use(topic.value, topic.indicator), soci::use(now),
        soci::into(request.id), soci::into(request.seq);
    return request;
}

std::optional<PullRequestPost> find_post(soci::session& session, int64_t id) {
    soci::row row;
    session << std::string("SELECT ") + post_columns +
                   " FROM git_pull_request_posts WHERE id = :id",
        soci::use(id), soci::into(row);
    if (!session.got_data()) {
        return std::nullopt;
    }
    RowReader read(row);
    PullRequestPost post;
    post.id = read.int64("id");
    post.kind = read.text("kind") == "check" ? PostKind::check : PostKind::comment;
    post.provider = read.text("provider");
    post.repository_key = read.text("repository_key");
    post.target = read.text("target");
    post.project_id = read.int64("project_id");
    post.pr_number = read.int64("pr_number");
    post.head_sha = read.text("head_sha");
    post.remote_id = read.optional_text("remote_id");
    post.remote_gone = read.flag("remote_gone");
    post.pushed_body = read.optional_text("pushed_body");
    post.topic = read.optional_text("topic");
    return post;
}

void record_post_pushed(soci::session& session, int64_t id, int64_t claimed_seq,
                        const std::string& remote_id, const std::string& body, int64_t now) {
    // Every placeholder appears once (the PostgreSQL driver binds a repeated name only once).
    session << "UPDATE git_pull_request_posts SET pushed_seq = CASE WHEN pushed_seq > :seq1 THEN "
               "pushed_seq ELSE :seq2 END, lease_until = NULL, remote_id = :remote, pushed_body "
               "= :body, last_error = NULL, failed_at = NULL, updated_at = :now WHERE id = :id",
        soci::use(claimed_seq), soci::use(claimed_seq), soci::use(remote_id), soci::use(body),
        soci::use(now), soci::use(id);
}

void mark_post_gone(soci::session& session, int64_t id, int64_t claimed_seq, int64_t now) {
    session << "UPDATE git_pull_request_posts SET remote_gone = 1, pushed_seq = CASE WHEN "
               "pushed_seq > :seq1 THEN pushed_seq ELSE :seq2 END, lease_until = NULL, "
               "updated_at = :now WHERE id = :id",
        soci::use(claimed_seq), soci::use(claimed_seq), soci::use(now), soci::use(id);
}

void write_section(soci::session& session, const PullRequestSection& section, int64_t now) {
    if (section.markdown.empty()) {
        session << "DELETE FROM git_pull_request_sections WHERE provider = :provider AND "
                   "repository_key = :repository AND pr_number = :pr AND topic = :topic AND "
                   "project_id = :project",
            soci::use(section.provider), soci::use(section.repository_key),
            soci::use(section.pr_number), soci::use(section.topic), soci::use(section.project_id);
        return;
    }
    session << "INSERT INTO git_pull_request_sections (provider, repository_key, pr_number, "
               "topic, project_id, markdown, updated_at) VALUES (:provider, :repository, :pr, "
               ":topic, :project, :markdown, :now) ON CONFLICT (provider, repository_key, "
               "pr_number, topic, project_id) DO UPDATE SET markdown = excluded.markdown, "
               "updated_at = excluded.updated_at",
        soci::use(section.provider), soci::use(section.repository_key),
        soci::use(section.pr_number), soci::use(section.topic), soci::use(section.project_id),
        soci::use(section.markdown), soci::use(now);
}

std::vector<PullRequestSection> topic_sections(soci::session& session, const std::string& provider,
                                               const std::string& repository_key, int64_t pr_number,
                                               const std::string& topic) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT project_id, markdown FROM git_pull_request_sections WHERE "
                            "provider = :provider AND repository_key = :repository AND "
                            "pr_number = :pr AND topic = :topic ORDER BY project_id",
         soci::use(provider), soci::use(repository_key), soci::use(pr_number), soci::use(topic));
    std::vector<PullRequestSection> sections;
    for (const auto& row : rows) {
        RowReader read(row);
        sections.push_back(PullRequestSection{provider, repository_key, pr_number, topic,
                                              read.int64("project_id"), read.text("markdown")});
    }
    return sections;
}

int64_t delete_pull_request_builds(soci::session& session, const std::vector<int64_t>& build_ids) {
    if (build_ids.empty()) {
        return 0;
    }
    const std::string ids = Json(build_ids).dump();
    soci::statement statement =
        (session.prepare << render_sql(dialect_of(session),
                                       "DELETE FROM git_pull_request_builds WHERE build_id IN "
                                       "(SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}})"),
         soci::use(ids, "ids"));
    statement.execute(true);
    return statement.get_affected_rows();
}

}  // namespace loupe::git
