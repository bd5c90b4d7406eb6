#include "store/links.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"

namespace loupe::deployments {
namespace {

constexpr const char* link_columns =
    "id, project_id, deployment_id, site_name, source, created_at, expires_at, revoked_at";

SiteLink read_link(const soci::row& row) {
    RowReader r(row);
    SiteLink link;
    link.id = r.int64("id");
    link.project_id = r.int64("project_id");
    link.deployment_id = r.int64("deployment_id");
    link.site_name = r.text("site_name");
    link.source = r.text("source");
    link.created_at = r.int64("created_at");
    link.expires_at = r.int64("expires_at");
    link.revoked_at = r.optional_int("revoked_at");
    return link;
}

}  // namespace

void insert_link(soci::session& session, SiteLink& link,
                 const std::function<std::string(int64_t)>& key_hash_of) {
    session << "INSERT INTO deployment_links (project_id, deployment_id, site_name, source, "
               "created_at, expires_at) VALUES (:project, :deployment, :name, :source, :created, "
               ":expires) RETURNING id",
        soci::use(link.project_id, "project"), soci::use(link.deployment_id, "deployment"),
        soci::use(link.site_name, "name"), soci::use(link.source, "source"),
        soci::use(link.created_at, "created"), soci::use(link.expires_at, "expires"),
        soci::into(link.id);
    const std::string key_hash = key_hash_of(link.id);
    session << "UPDATE deployment_links SET key_hash = :hash WHERE id = :id",
        soci::use(key_hash, "hash"), soci::use(link.id, "id");
}

std::optional<SiteTarget> find_link_target(soci::session& session, const std::string& key_hash) {
    soci::row row;
    session << "SELECT d.id, d.project_id, d.environment, d.spa, d.compressed, l.expires_at "
               "FROM deployment_links l JOIN deployments d ON d.id = l.deployment_id "
               "WHERE l.key_hash = :hash AND l.revoked_at IS NULL AND d.status = 'ready'",
        soci::use(key_hash, "hash"), soci::into(row);
    if (!session.got_data()) {
        return std::nullopt;
    }
    RowReader r(row);
    SiteTarget target;
    target.deployment_id = r.int64("id");
    target.project_id = r.int64("project_id");
    target.environment = r.text("environment");
    target.spa = r.flag("spa");
    target.compressed = r.flag("compressed");
    target.via_link = true;
    target.link_expires_at = r.int64("expires_at");
    return target;
}

std::map<std::pair<int64_t, std::string>, SiteLink> reusable_api_links(
    soci::session& session, const std::vector<int64_t>& deployment_ids, int64_t not_before) {
    std::map<std::pair<int64_t, std::string>, SiteLink> links;
    for_each_row_of_ids(
        session,
        std::string("SELECT ") + link_columns +
            " FROM deployment_links WHERE deployment_id IN (SELECT CAST(value AS BIGINT) FROM "
            "{{json_rows:ids}}) AND source = 'api' AND revoked_at IS NULL AND key_hash IS NOT "
            "NULL",
        deployment_ids, [&](const soci::row& row) {
            SiteLink link = read_link(row);
            if (link.expires_at <= not_before) {
                return;
            }
            auto& slot = links[{link.deployment_id, link.site_name}];
            if (slot.expires_at < link.expires_at) {
                slot = std::move(link);
            }
        });
    return links;
}

std::vector<SiteLink> live_links(soci::session& session, int64_t project_id, int64_t now,
                                 const std::optional<std::string>& site_name) {
    const std::string name = site_name.value_or("");
    const int any_name = site_name ? 0 : 1;
    soci::rowset<soci::row> rows =
        (session.prepare << std::string("SELECT ") + link_columns +
                                " FROM deployment_links WHERE project_id = :project AND "
                                "revoked_at IS NULL AND expires_at > :now AND (:any_name = 1 OR "
                                "site_name = :name) ORDER BY id DESC",
         soci::use(project_id, "project"), soci::use(now, "now"), soci::use(any_name, "any_name"),
         soci::use(name, "name"));
    std::vector<SiteLink> links;
    for (const auto& row : rows) {
        links.push_back(read_link(row));
    }
    return links;
}

bool revoke_link(soci::session& session, int64_t project_id, int64_t link_id, int64_t now) {
    soci::statement statement =
        (session.prepare << "UPDATE deployment_links SET revoked_at = :now WHERE id = :id AND "
                            "project_id = :project AND revoked_at IS NULL AND expires_at > :now2",
         soci::use(now, "now"), soci::use(link_id, "id"), soci::use(project_id, "project"),
         soci::use(now, "now2"));
    statement.execute(true);
    return statement.get_affected_rows() > 0;
}

int64_t revoke_links(soci::session& session, int64_t project_id, int64_t now,
                     const std::optional<std::string>& site_name) {
    const std::string name = site_name.value_or("");
    const int any_name = site_name ? 0 : 1;
    soci::statement statement =
        (session.prepare << "UPDATE deployment_links SET revoked_at = :now WHERE project_id = "
                            ":project AND revoked_at IS NULL AND expires_at > :now2 AND "
                            "(:any_name = 1 OR site_name = :name)",
         soci::use(now, "now"), soci::use(project_id, "project"), soci::use(now, "now2"),
         soci::use(any_name, "any_name"), soci::use(name, "name"));
    statement.execute(true);
    return statement.get_affected_rows();
}

}  // namespace loupe::deployments
