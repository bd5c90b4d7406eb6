#include "store/links.hpp"

#include <regex>

#include "loupe/db/row_reader.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::git {
namespace {

const std::regex github_repository(R"(^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$)");
const std::regex gitlab_path(R"(^[A-Za-z0-9_.][A-Za-z0-9_.-]*(/[A-Za-z0-9_.][A-Za-z0-9_.-]*)+$)");

constexpr const char* link_columns =
    "project_id, provider, repository, installation_id, token_file, gitlab_project_id";

RepositoryLink read_link(const soci::row& row) {
    RowReader read(row);
    RepositoryLink link;
    link.project_id = read.int64("project_id");
    link.provider = read.text("provider") == "gitlab" ? Provider::gitlab : Provider::github;
    link.repository = read.text("repository");
    link.installation_id = read.optional_int("installation_id");
    link.token_file = read.optional_text("token_file");
    link.gitlab_project_id = read.optional_int("gitlab_project_id");
    return link;
}

template <class... Values>
std::vector<RepositoryLink> select_links(soci::session& session, const std::string& where,
                                         const Values&... values) {
    std::vector<RepositoryLink> links;
    const std::string sql = std::string("SELECT ") + link_columns + " FROM git_repository_links " +
                            where + " ORDER BY project_id";
    soci::rowset<soci::row> rows = ((session.prepare << sql), ..., soci::use(values));
    for (const auto& row : rows) {
        links.push_back(read_link(row));
    }
    return links;
}

}  // namespace

bool repository_name_fits(Provider provider, const std::string& repository) {
    return repository.size() <= 255 &&
           std::regex_match(repository,
                            provider == Provider::github ? github_repository : gitlab_path);
}

std::string repository_key(const std::string& repository) {
    return to_lower(repository);
}

const char* provider_name(Provider provider) {
    return provider == Provider::gitlab ? "gitlab" : "github";
}

std::optional<RepositoryLink> find_link(soci::session& session, int64_t project_id) {
    auto links = select_links(session, "WHERE project_id = :project", project_id);
    if (links.empty()) {
        return std::nullopt;
    }
    return links.front();
}

std::vector<RepositoryLink> links_to(soci::session& session, Provider provider,
                                     const std::string& repository) {
    const std::string name = provider_name(provider);
    const std::string key = repository_key(repository);
    return select_links(session, "WHERE provider = :provider AND repository_key = :key", name, key);
}

std::vector<RepositoryLink> all_links(soci::session& session) {
    return select_links(session, "");
}

void save_link(soci::session& session, const RepositoryLink& link, int64_t now) {
    const std::string provider = provider_name(link.provider);
    const std::string key = repository_key(link.repository);
    int64_t installation = link.installation_id.value_or(0);
    auto installation_null = link.installation_id ? soci::i_ok : soci::i_null;
    std::string token_file = link.token_file.value_or("");
    auto token_file_null = link.token_file ? soci::i_ok : soci::i_null;
    int64_t gitlab_id = link.gitlab_project_id.value_or(0);
    auto gitlab_id_null = link.gitlab_project_id ? soci::i_ok : soci::i_null;
    session << "INSERT INTO git_repository_links (project_id, provider, repository, "
               "repository_key, installation_id, token_file, gitlab_project_id, created_at) "
               "VALUES (:project, :provider, :repository, :key, :installation, :token_file, "
               ":gitlab_id, :now) ON CONFLICT (project_id) DO UPDATE SET provider = "
               "excluded.provider, repository = excluded.repository, repository_key = "
               "excluded.repository_key, installation_id = excluded.installation_id, token_file "
               "= excluded.token_file, gitlab_project_id = excluded.gitlab_project_id, "
               "created_at = excluded.created_at",
        soci::use(link.project_id), soci::use(provider), soci::use(link.repository), soci::use(key),
        soci::use(installation, installation_null), soci::use(token_file, token_file_null),
        soci::use(gitlab_id, gitlab_id_null), soci::use(now);
}

bool delete_link(soci::session& session, int64_t project_id) {
    soci::statement remove =
        (session.prepare << "DELETE FROM git_repository_links WHERE project_id = :project",
         soci::use(project_id));
    remove.execute(true);
    return remove.get_affected_rows() > 0;
}

}  // namespace loupe::git
