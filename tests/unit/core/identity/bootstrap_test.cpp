#include "identity/bootstrap.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "auth/authenticator.hpp"
#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

TEST_CASE_FIXTURE(test::IdentityFixture, "the first start creates admin, default and tokens once") {
    test::TempDir data;
    const std::string data_dir = data.path() + "/data";  // created on demand
    std::ostringstream out;
    const int64_t before_ms = now_ms();
    const auto result = bootstrap_if_empty(identity, data_dir, out);
    REQUIRE(result.has_value());
    CHECK(result->file == data_dir + "/bootstrap.json");
    CHECK(result->project_token.size() == 40);
    CHECK(result->project_token.starts_with("argos_"));
    CHECK(result->personal_access_token.size() == 40);
    CHECK(result->personal_access_token.starts_with("arp_"));

    struct stat info {};
    REQUIRE(::stat(result->file.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    CHECK_FALSE(std::filesystem::exists(result->file + ".tmp"));
    const Json saved = Json::parse(read_file(result->file));
    CHECK(saved == Json{{"user", "admin"},
                        {"account", "default"},
                        {"project", "default"},
                        {"projectToken", result->project_token},
                        {"personalAccessToken", result->personal_access_token},
                        {"personalAccessTokenExpiresAt",
                         iso_time(result->personal_access_token_expires_at)}});

    const std::string printed = out.str();
    CHECK(printed.starts_with("+--"));
    CHECK(printed.find(result->project_token) != std::string::npos);
    CHECK(printed.find(result->personal_access_token) != std::string::npos);
    CHECK(printed.find(result->file) != std::string::npos);

    const auto admin = identity.find_user("admin");
    const auto team = identity.find_account("default");
    REQUIRE(admin.has_value());
    REQUIRE(team.has_value());
    CHECK(team->kind == AccountKind::team);
    CHECK(identity.can_administer(admin->id, *team));
    const auto project = identity.find_project("default", "default");
    REQUIRE(project.has_value());
    CHECK(project->default_base_branch == "main");

    // The printed tokens work.
    std::map<std::string, TokenResolver> resolvers;
    Authenticator authenticator(*database, resolvers);
    const Principal by_project = authenticator.authenticate(
        "Bearer " + result->project_token, AuthRequirement::project_token, nullptr);
    CHECK(by_project.project_id == project->id);
    const std::string account = "default";
    const Principal by_pat =
        authenticator.authenticate("Bearer " + result->personal_access_token,
                                   AuthRequirement::personal_token_for_account, &account);
    CHECK(by_pat.user_id == admin->id);
    REQUIRE(by_pat.scope.size() == 1);
    CHECK(by_pat.scope[0].slug == "default");

    // The PAT expires 30 days after the first start; the block and the file say when.
    const int64_t thirty_days_ms = 30LL * 24 * 60 * 60 * 1000;
    CHECK(result->personal_access_token_expires_at >= before_ms + thirty_days_ms);
    CHECK(result->personal_access_token_expires_at <= now_ms() + thirty_days_ms);
    bool listed = false;
    for (const auto& token : identity.list_tokens()) {
        if (token.kind == "personal") {
            listed = true;
            CHECK(token.expires_at == result->personal_access_token_expires_at);
        }
    }
    CHECK(listed);
    CHECK(printed.find("expires on " +
                       iso_time(result->personal_access_token_expires_at).substr(0, 10)) !=
          std::string::npos);
    CHECK(Json::parse(read_file(result->file))["personalAccessTokenExpiresAt"] ==
          iso_time(result->personal_access_token_expires_at));

    // The block says how to revoke the PAT, and the command it prints works.
    const std::string revoke = "loupe admin token revoke --prefix ";
    const auto at = printed.find(revoke);
    REQUIRE(at != std::string::npos);
    const std::string prefix = printed.substr(
        at + revoke.size(), printed.find(' ', at + revoke.size()) - at - revoke.size());
    CHECK(result->personal_access_token.starts_with(prefix));
    CHECK(prefix.size() >= 8);
    CHECK(identity.revoke_tokens(prefix) == 1);
    CHECK_THROWS_AS(
        authenticator.authenticate("Bearer " + result->personal_access_token,
                                   AuthRequirement::personal_token_for_account, &account),
        HttpError);
    CHECK(authenticator
              .authenticate("Bearer " + result->project_token, AuthRequirement::project_token,
                            nullptr)
              .project_id == project->id);

    // A second start finds a user and does nothing.
    std::ostringstream second_out;
    CHECK_FALSE(bootstrap_if_empty(identity, data_dir, second_out).has_value());
    CHECK(second_out.str().empty());
    CHECK(Json::parse(read_file(result->file))["projectToken"] == result->project_token);
}

TEST_CASE_FIXTURE(test::IdentityFixture, "a database with users is never bootstrapped") {
    identity.create_user("alice", "Alice");
    test::TempDir data;
    std::ostringstream out;
    CHECK_FALSE(bootstrap_if_empty(identity, data.path(), out).has_value());
    CHECK(out.str().empty());
    CHECK_FALSE(std::filesystem::exists(data.path() + "/bootstrap.json"));
    CHECK_FALSE(identity.find_user("admin").has_value());
}

TEST_CASE_FIXTURE(test::IdentityFixture, "a failed first start leaves neither rows nor file") {
    test::TempDir data;
    // A pre-existing account named "default" makes the bootstrap transaction fail midway.
    execute(
        "INSERT INTO accounts (slug, name, kind, created_at) VALUES ('default', 'D', "
        "'team', 1)");
    std::ostringstream out;
    CHECK_THROWS_AS(bootstrap_if_empty(identity, data.path(), out), AdminError);
    CHECK_FALSE(identity.has_any_user());
    CHECK_FALSE(std::filesystem::exists(data.path() + "/bootstrap.json"));
    CHECK_FALSE(std::filesystem::exists(data.path() + "/bootstrap.json.tmp"));
    CHECK(out.str().empty());
}

}  // namespace
}  // namespace loupe
