#include "store/sites.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe::deployments {
namespace {

SiteTarget read_target(const soci::row& row) {
    RowReader r(row);
    SiteTarget target;
    target.deployment_id = r.int64("id");
    target.project_id = r.int64("project_id");
    target.environment = r.text("environment");
    target.alias_type = r.text("alias_type");
    target.spa = r.flag("spa");
    target.compressed = r.flag("compressed");
    return target;
}

}  // namespace

std::optional<SiteTarget> find_site(soci::session& session, const std::string& name) {
    soci::row row;
    session << "SELECT id, project_id, environment, '' AS alias_type, spa, compressed "
               "FROM deployments WHERE slug = :name AND status = 'ready'",
        soci::use(name, "name"), soci::into(row);
    if (session.got_data()) {
        return read_target(row);
    }
    session << "SELECT d.id, d.project_id, d.environment, a.type AS alias_type, d.spa, "
               "d.compressed FROM deployment_aliases a JOIN deployments d ON d.id = "
               "a.deployment_id WHERE a.alias = :name AND d.status = 'ready'",
        soci::use(name, "name"), soci::into(row);
    if (session.got_data()) {
        return read_target(row);
    }
    return std::nullopt;
}

std::vector<SiteFileRow> site_files(soci::session& session, int64_t deployment_id) {
    std::vector<SiteFileRow> files;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT f.path, f.hash, f.content_type, COALESCE(c.size, f.size) AS "
                            "size, c.gzip_hash, c.gzip_size FROM deployment_files f LEFT JOIN "
                            "deployment_contents c ON c.hash = f.hash WHERE f.deployment_id = :id",
         soci::use(deployment_id, "id"));
    for (const auto& row : rows) {
        RowReader r(row);
        files.push_back({r.text("path"), r.text("hash"), r.text("content_type"), r.int64("size"),
                         r.optional_text("gzip_hash"), r.optional_int("gzip_size").value_or(0)});
    }
    return files;
}

}  // namespace loupe::deployments
