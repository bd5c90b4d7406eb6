#include "store/media_store.hpp"

#include "loupe/db/dialect.hpp"
#include "loupe/db/nullable.hpp"
#include "loupe/db/query.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"

namespace loupe::media {
namespace {

constexpr const char* media_columns =
    "m.id, m.project_id, m.name, m.state, m.description, m.branch, m.pr_number, m.visibility, "
    "m.share_token, m.created_at";

MediaRow read_media(const soci::row& row) {
    RowReader read(row);
    MediaRow media;
    media.id = read.int64("id");
    media.project_id = read.int64("project_id");
    media.name = read.text("name");
    media.state = read.optional_text("state");
    media.description = read.optional_text("description");
    media.branch = read.optional_text("branch");
    media.pr_number = read.optional_int("pr_number");
    media.visibility = read.text("visibility");
    media.share_token = read.text("share_token");
    media.created_at = read.int64("created_at");
    return media;
}

VersionRow read_version(const soci::row& row) {
    RowReader read(row);
    VersionRow version;
    version.id = read.int64("id");
    version.media_id = read.int64("media_id");
    version.number = read.int64("number");
    version.blob_key = read.text("blob_key");
    version.content_type = read.text("content_type");
    version.size_bytes = read.int64("size_bytes");
    version.width = read.optional_int("width");
    version.height = read.optional_int("height");
    version.file_token = read.text("file_token");
    version.uploaded_at = read.optional_int("uploaded_at");
    version.created_at = read.int64("created_at");
    return version;
}

std::vector<MediaRow> select_media(soci::session& session, const Query& query,
                                   const std::string& suffix) {
    std::vector<MediaRow> found;
    query.for_each_row(session, media_columns, "media m", suffix,
                       [&](const soci::row& row) { found.push_back(read_media(row)); });
    return found;
}

// NULL-equal comparison of an optional text column.
void same_text(Query& query, const char* column, const std::optional<std::string>& value) {
    if (value) {
        query.where(std::string(column) + " = ?", {*value});
    } else {
        query.where(std::string(column) + " IS NULL");
    }
}

/// `text` with LIKE's wildcards and escape character escaped.
std::string like_escaped(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        if (c == '\\' || c == '%' || c == '_') {
            escaped += '\\';
        }
        escaped += c;
    }
    return escaped;
}

}  // namespace

std::optional<MediaRow> find_media(soci::session& session, int64_t id) {
    Query query;
    query.where("m.id = ?", {id});
    auto found = select_media(session, query, "");
    if (found.empty()) {
        return std::nullopt;
    }
    return found.front();
}

std::optional<MediaRow> find_media_for(soci::session& session, const MediaIdentity& identity) {
    Query query;
    query.where("m.project_id = ?", {identity.project_id}).where("m.name = ?", {identity.name});
    same_text(query, "m.state", identity.state);
    std::string order = "ORDER BY m.id LIMIT 1";
    if (identity.pr_number) {
        if (identity.branch) {
            query.where("m.pr_number = ? OR (m.pr_number IS NULL AND m.branch = ?)",
                        {*identity.pr_number, *identity.branch});
            // The one already on the pull request first, then the staged one it adopts.
            order = "ORDER BY CASE WHEN m.pr_number IS NULL THEN 1 ELSE 0 END, m.id LIMIT 1";
        } else {
            query.where("m.pr_number = ?", {*identity.pr_number});
        }
    } else if (identity.branch) {
        query.where("m.branch = ?", {*identity.branch});
    } else {
        query.where("m.pr_number IS NULL AND m.branch IS NULL");
    }
    auto found = select_media(session, query, order);
    if (found.empty()) {
        return std::nullopt;
    }
    return found.front();
}

bool staged_name_taken(soci::session& session, const MediaRow& media,
                       const std::optional<std::string>& branch, const std::string& name) {
    Query query;
    query.where("m.project_id = ?", {media.project_id})
        .where("m.id <> ?", {media.id})
        .where("m.name = ?", {name})
        .where("m.pr_number IS NULL");
    same_text(query, "m.state", media.state);
    same_text(query, "m.branch", branch);
    return !select_media(session, query, "LIMIT 1").empty();
}

int64_t insert_media(soci::session& session, const MediaRow& media) {
    Nullable state(media.state), description(media.description), branch(media.branch);
    Nullable pr(media.pr_number);
    long long id = 0;
    session << "INSERT INTO media (project_id, name, state, description, branch, pr_number, "
               "visibility, share_token, created_at, updated_at) VALUES (:project, :name, "
               ":state, :description, :branch, :pr, :visibility, :token, :created, :updated) "
               "RETURNING id",
        soci::use(media.project_id), soci::use(media.name), soci::use(state.value, state.indicator),
        soci::use(description.value, description.indicator),
        soci::use(branch.value, branch.indicator), soci::use(pr.value, pr.indicator),
        soci::use(media.visibility), soci::use(media.share_token), soci::use(media.created_at),
        soci::use(media.created_at), soci::into(id);
    return id;
}

int64_t adopt_staged_media(soci::session& session, int64_t project_id, const std::string& branch,
                           int64_t pr_number) {
    Query staged;
    staged.where("m.project_id = ?", {project_id})
        .where("m.branch = ? AND m.pr_number IS NULL", {branch})
        .where(
            "EXISTS (SELECT 1 FROM media_versions v WHERE v.media_id = m.id AND v.uploaded_at IS "
            "NOT NULL)");
    int64_t adopted = 0;
    for (auto& media : select_media(session, staged, "ORDER BY m.id")) {
        Query taken;
        taken.where("m.project_id = ?", {project_id})
            .where("m.pr_number = ?", {pr_number})
            .where("m.name = ?", {media.name});
        same_text(taken, "m.state", media.state);
        if (!select_media(session, taken, "LIMIT 1").empty()) {
            continue;  // the pull request has its own: this one stays staged
        }
        media.pr_number = pr_number;
        update_media(session, media);
        ++adopted;
    }
    return adopted;
}

void update_media(soci::session& session, const MediaRow& media) {
    Nullable description(media.description), branch(media.branch);
    Nullable pr(media.pr_number);
    const int64_t now = now_ms();
    session << "UPDATE media SET name = :name, description = :description, branch = :branch, "
               "pr_number = :pr, visibility = :visibility, updated_at = :now WHERE id = :id",
        soci::use(media.name), soci::use(description.value, description.indicator),
        soci::use(branch.value, branch.indicator), soci::use(pr.value, pr.indicator),
        soci::use(media.visibility), soci::use(now), soci::use(media.id);
}

void delete_media(soci::session& session, int64_t id) {
    session << "DELETE FROM media_versions WHERE media_id = :id", soci::use(id);
    session << "DELETE FROM media WHERE id = :id", soci::use(id);
}

std::optional<MediaRow> find_media_by_share_token(soci::session& session,
                                                  const std::string& token) {
    Query query;
    query.where("m.share_token = ?", {token});
    auto found = select_media(session, query, "");
    if (found.empty()) {
        return std::nullopt;
    }
    return found.front();
}

std::optional<VersionRow> find_uploaded_version(soci::session& session, const std::string& token) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, media_id, number, blob_key, content_type, size_bytes, "
                            "width, height, file_token, uploaded_at, created_at FROM "
                            "media_versions WHERE file_token = :token AND uploaded_at IS NOT NULL",
         soci::use(token));
    for (const auto& row : rows) {
        return read_version(row);
    }
    return std::nullopt;
}

std::vector<VersionRow> media_versions(soci::session& session, int64_t media_id) {
    std::vector<VersionRow> versions;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, media_id, number, blob_key, content_type, size_bytes, "
                            "width, height, file_token, uploaded_at, created_at FROM "
                            "media_versions WHERE media_id = :media ORDER BY number DESC",
         soci::use(media_id));
    for (const auto& row : rows) {
        versions.push_back(read_version(row));
    }
    return versions;
}

std::map<int64_t, std::vector<VersionRow>> versions_of_media(
    soci::session& session, const std::vector<int64_t>& media_ids) {
    std::map<int64_t, std::vector<VersionRow>> versions;
    for_each_row_of_ids(session,
                        "SELECT id, media_id, number, blob_key, content_type, size_bytes, width, "
                        "height, file_token, uploaded_at, created_at FROM media_versions WHERE "
                        "media_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}}) ORDER "
                        "BY media_id, number DESC",
                        media_ids, [&](const soci::row& row) {
                            auto version = read_version(row);
                            versions[version.media_id].push_back(std::move(version));
                        });
    return versions;
}

int64_t insert_version(soci::session& session, const VersionRow& version) {
    long long id = 0;
    session << "INSERT INTO media_versions (media_id, number, blob_key, content_type, size_bytes, "
               "file_token, created_at) VALUES (:media, :number, :key, :type, :size, :token, "
               ":created) RETURNING id",
        soci::use(version.media_id), soci::use(version.number), soci::use(version.blob_key),
        soci::use(version.content_type), soci::use(version.size_bytes),
        soci::use(version.file_token), soci::use(version.created_at), soci::into(id);
    return id;
}

void mark_uploaded(soci::session& session, const VersionRow& version) {
    Nullable width(version.width), height(version.height), uploaded(version.uploaded_at);
    session << "UPDATE media_versions SET size_bytes = :size, width = :width, height = :height, "
               "uploaded_at = :uploaded, content_type = :type WHERE id = :id",
        soci::use(version.size_bytes), soci::use(width.value, width.indicator),
        soci::use(height.value, height.indicator), soci::use(uploaded.value, uploaded.indicator),
        soci::use(version.content_type), soci::use(version.id);
}

std::set<std::string> referenced_blob_keys(soci::session& session,
                                           const std::vector<std::string>& keys) {
    std::set<std::string> held;
    if (keys.empty()) {
        return held;
    }
    Json rows = Json::array();
    for (const auto& key : keys) {
        rows.push_back({{"v", key}});
    }
    const std::string bound = rows.dump();
    soci::rowset<std::string> found =
        (session.prepare << render_sql(
             dialect_of(session),
             "SELECT DISTINCT blob_key FROM media_versions WHERE blob_key "
             "IN (SELECT value ->> 'v' FROM {{json_rows:keys}})"),
         soci::use(bound, "keys"));
    for (const auto& key : found) {
        held.insert(key);
    }
    return held;
}

std::pair<std::vector<MediaRow>, int64_t> list_media(soci::session& session,
                                                     const MediaQuery& filter) {
    Query query;
    query.where("m.project_id = ?", {filter.project_id})
        .where(
            "EXISTS (SELECT 1 FROM media_versions v WHERE v.media_id = m.id AND v.uploaded_at IS "
            "NOT NULL)");
    if (filter.branch) {
        query.where("m.branch = ?", {*filter.branch});
    }
    if (filter.pr_number) {
        query.where("m.pr_number = ?", {*filter.pr_number});
    }
    if (filter.stage == "staged") {
        query.where("m.pr_number IS NULL");
    } else if (filter.stage == "published") {
        query.where("m.pr_number IS NOT NULL");
    }
    if (filter.search) {
        const std::string pattern = "%" + like_escaped(*filter.search) + "%";
        query.where(
            "LOWER(m.name) LIKE LOWER(?) ESCAPE '\\' OR LOWER(COALESCE(m.description, '')) LIKE "
            "LOWER(?) ESCAPE '\\'",
            {pattern, pattern});
    }
    if (filter.type) {
        // The kind of the newest uploaded version.
        query.where(std::string("(SELECT v.content_type FROM media_versions v WHERE v.media_id = "
                                "m.id AND v.uploaded_at IS NOT NULL ORDER BY v.number DESC "
                                "LIMIT 1) ") +
                    (*filter.type == "video" ? "LIKE 'video/%'" : "NOT LIKE 'video/%'"));
    }
    const int64_t total = query.count(session, "media m");
    auto rows =
        select_media(session, query,
                     "ORDER BY m.created_at DESC, m.id DESC LIMIT " + std::to_string(filter.limit) +
                         " OFFSET " + std::to_string(filter.offset));
    return {std::move(rows), total};
}

}  // namespace loupe::media
