#include "store/screenshots.hpp"

#include <soci/soci.h>

namespace loupe::builds {
namespace {

int64_t test_id_for(soci::session& session, int64_t project_id, const std::string& build_name,
                    const std::string& name) {
    const int64_t now = now_ms();
    session << "INSERT INTO build_tests (project_id, build_name, name, created_at) VALUES (:p, "
               ":b, :n, :t) ON CONFLICT (project_id, build_name, name) DO NOTHING",
        soci::use(project_id), soci::use(build_name), soci::use(name), soci::use(now);
    int64_t id = 0;
    session << "SELECT id FROM build_tests WHERE project_id = :p AND build_name = :b AND name = :n",
        soci::use(project_id), soci::use(build_name), soci::use(name), soci::into(id);
    return id;
}

}  // namespace

std::map<std::string, std::string> stored_screenshot_names(soci::session& session,
                                                           int64_t build_id) {
    std::map<std::string, std::string> names;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT name, blob_key FROM screenshots WHERE build_id = :b",
         soci::use(build_id));
    for (const auto& row : rows) {
        names[row.get<std::string>(0)] = row.get<std::string>(1);
    }
    return names;
}

int insert_screenshots(soci::session& session, int64_t project_id, int64_t build_id,
                       const std::string& build_name, const std::vector<ScreenshotInput>& inputs) {
    auto taken = stored_screenshot_names(session, build_id);
    int inserted = 0;
    for (const auto& input : inputs) {
        std::string name = input.name;
        if (auto it = taken.find(name); it != taken.end()) {
            if (it->second == input.key) {
                continue;
            }
            for (int suffix = 1;; ++suffix) {
                name = input.name + "-" + std::to_string(suffix);
                auto clash = taken.find(name);
                if (clash == taken.end()) {
                    break;
                }
                if (clash->second == input.key) {
                    name.clear();
                    break;
                }
            }
            if (name.empty()) {
                continue;
            }
        }
        taken[name] = input.key;
        const int64_t test_id = test_id_for(session, project_id, build_name, name);
        const std::string base_names = input.base_names.is_null() ? "" : input.base_names.dump();
        const std::string metadata = input.metadata.is_null() ? "" : input.metadata.dump();
        const std::string parent = input.parent_name.value_or("");
        const std::string trace = input.pw_trace_key.value_or("");
        const double threshold = input.threshold.value_or(-1);
        const int64_t now = now_ms();
        session << "INSERT INTO screenshots (build_id, name, blob_key, content_type, base_names, "
                   "parent_name, metadata, pw_trace_key, threshold, test_id, created_at) VALUES "
                   "(:b, :n, :k, :ct, NULLIF(:bn, ''), NULLIF(:pn, ''), NULLIF(:m, ''), "
                   "NULLIF(:t, ''), NULLIF(:th, CAST(-1 AS DOUBLE PRECISION)), :test, :now)",
            soci::use(build_id), soci::use(name), soci::use(input.key),
            soci::use(input.content_type), soci::use(base_names), soci::use(parent),
            soci::use(metadata), soci::use(trace), soci::use(threshold), soci::use(test_id),
            soci::use(now);
        ++inserted;
    }
    return inserted;
}

}  // namespace loupe::builds
