#include "store/deployment.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::deployments {
namespace {

constexpr const char* columns =
    "id, project_id, slug, status, environment, branch, commit_sha, pr_number, spa, file_count, "
    "compressed, created_at, finalized_at";

Deployment read_deployment(const soci::row& row) {
    RowReader r(row);
    Deployment d;
    d.id = r.int64("id");
    d.project_id = r.int64("project_id");
    d.slug = r.text("slug");
    d.status = r.text("status");
    d.environment = r.text("environment");
    d.branch = r.text("branch");
    d.commit = r.text("commit_sha");
    d.pr_number = r.optional_int("pr_number");
    d.spa = r.flag("spa");
    d.file_count = r.int64("file_count");
    d.compressed = r.flag("compressed");
    d.created_at = r.int64("created_at");
    d.finalized_at = r.optional_int("finalized_at");
    return d;
}

// An unset filter field binds an empty text and a flag that makes its condition true, so one
// statement serves every combination.
constexpr const char* filter_conditions =
    " FROM deployments WHERE project_id = :project "
    "AND (:any_branch = 1 OR branch = :branch) "
    "AND (:any_environment = 1 OR environment = :environment)";

struct FilterValues {
    explicit FilterValues(const DeploymentFilter& filter)
        : project_id(filter.project_id),
          branch(filter.branch.value_or("")),
          environment(filter.environment.value_or("")),
          any_branch(filter.branch ? 0 : 1),
          any_environment(filter.environment ? 0 : 1) {}
    int64_t project_id;
    std::string branch;
    std::string environment;
    int any_branch;
    int any_environment;
};

}  // namespace

int64_t count_deployments(soci::session& session, const DeploymentFilter& filter) {
    const FilterValues v(filter);
    int64_t count = 0;
    session << std::string("SELECT COUNT(*)") + filter_conditions,
        soci::use(v.project_id, "project"), soci::use(v.any_branch, "any_branch"),
        soci::use(v.branch, "branch"), soci::use(v.any_environment, "any_environment"),
        soci::use(v.environment, "environment"), soci::into(count);
    return count;
}

std::vector<Deployment> list_deployments(soci::session& session, const DeploymentFilter& filter,
                                         int64_t limit, int64_t offset) {
    const FilterValues v(filter);
    const std::string sql = std::string("SELECT ") + columns + filter_conditions +
                            " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset";
    soci::rowset<soci::row> rows =
        (session.prepare << sql, soci::use(v.project_id, "project"),
         soci::use(v.any_branch, "any_branch"), soci::use(v.branch, "branch"),
         soci::use(v.any_environment, "any_environment"), soci::use(v.environment, "environment"),
         soci::use(limit, "limit"), soci::use(offset, "offset"));
    std::vector<Deployment> deployments;
    for (const auto& row : rows) {
        deployments.push_back(read_deployment(row));
    }
    return deployments;
}

std::optional<Deployment> find_deployment(soci::session& session, Dialect dialect, int64_t id,
                                          bool for_update) {
    std::string sql = std::string("SELECT ") + columns + " FROM deployments WHERE id = :id";
    if (for_update && dialect == Dialect::postgresql) {
        sql += " FOR UPDATE";
    }
    soci::row row;
    session << sql, soci::use(id, "id"), soci::into(row);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return read_deployment(row);
}

bool site_name_taken(soci::session& session, const std::string& name) {
    int64_t count = 0;
    session << "SELECT (SELECT COUNT(*) FROM deployments WHERE slug = :a) + "
               "(SELECT COUNT(*) FROM deployment_aliases WHERE alias = :b)",
        soci::use(name, "a"), soci::use(name, "b"), soci::into(count);
    return count > 0;
}

void insert_deployment(soci::session& session, Deployment& d,
                       const std::vector<DeploymentFile>& files) {
    const int spa = d.spa ? 1 : 0;
    const int compressed = d.compressed ? 1 : 0;
    soci::indicator pr_indicator = d.pr_number ? soci::i_ok : soci::i_null;
    int64_t pr_number = d.pr_number.value_or(0);
    d.file_count = static_cast<int64_t>(files.size());
    session << "INSERT INTO deployments (project_id, slug, status, environment, branch, "
               "commit_sha, pr_number, spa, file_count, compressed, created_at) VALUES (:project, "
               ":slug, :status, :environment, :branch, :commit, :pr, :spa, :count, :compressed, "
               ":created) RETURNING id",
        soci::use(d.project_id, "project"), soci::use(d.slug, "slug"),
        soci::use(d.status, "status"), soci::use(d.environment, "environment"),
        soci::use(d.branch, "branch"), soci::use(d.commit, "commit"),
        soci::use(pr_number, pr_indicator, "pr"), soci::use(spa, "spa"),
        soci::use(d.file_count, "count"), soci::use(compressed, "compressed"),
        soci::use(d.created_at, "created"), soci::into(d.id);

    Json rows = Json::array();
    for (const auto& file : files) {
        rows.push_back({{"path", file.path},
                        {"hash", file.hash},
                        {"size", file.size},
                        {"type", file.content_type}});
    }
    const std::string rows_text = rows.dump();
    session << render_sql(dialect_of(session),
                          "INSERT INTO deployment_files (deployment_id, path, hash, size, "
                          "content_type) SELECT :deployment, value ->> 'path', value ->> 'hash', "
                          "CAST(value ->> 'size' AS BIGINT), value ->> 'type' "
                          "FROM {{json_rows:rows}}"),
        soci::use(d.id, "deployment"), soci::use(rows_text, "rows");
}

void mark_ready(soci::session& session, int64_t id, int64_t at_ms) {
    session << "UPDATE deployments SET status = 'ready', finalized_at = :at WHERE id = :id",
        soci::use(at_ms, "at"), soci::use(id, "id");
}

void mark_compressed(soci::session& session, int64_t id) {
    session << "UPDATE deployments SET compressed = 1 WHERE id = :id", soci::use(id, "id");
}

std::vector<DeploymentFile> unregistered_files(soci::session& session, int64_t deployment_id) {
    std::vector<DeploymentFile> files;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT f.path, f.hash, f.size, f.content_type FROM deployment_files f "
                            "LEFT JOIN deployment_contents c ON c.hash = f.hash "
                            "WHERE f.deployment_id = :id AND c.hash IS NULL",
         soci::use(deployment_id, "id"));
    for (const auto& row : rows) {
        RowReader r(row);
        files.push_back({r.text("path"), r.text("hash"), r.int64("size"), r.text("content_type")});
    }
    return files;
}

}  // namespace loupe::deployments
