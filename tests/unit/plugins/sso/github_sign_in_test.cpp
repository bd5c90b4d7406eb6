// Signing in with GitHub (a provider of kind github) on a real server, against the GitHub
// stand-in: the start sends the browser to GitHub's authorize page with PKCE and a state bound
// to it; the callback exchanges the code, reads the person's profile, verified address and
// teams, creates or finds the user, applies the team roles the provider maps, and opens the
// browser session. Refusals: a code GitHub refuses, no verified address, a state of another
// browser.
#include <Poco/URI.h>
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <fstream>

#include "support/http_client.hpp"
#include "support/in_process_server.hpp"
#include "support/provider_standin.hpp"
#include "support/server_database.hpp"
#include "support/server_process.hpp"
#include "support/test_database.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const json ada_data = {
    {"githubOAuth",
     {{"clientId", "Iv1.loupe"},
      {"clientSecret", "s3cret"},
      {"codes", {{"code-ada", "gho_ada"}, {"code-nomail", "gho_nomail"}}},
      {"users",
       {{"gho_ada",
         {{"user", {{"id", 583231}, {"login", "ada"}, {"name", "Ada Lovelace"}}},
          {"emails",
           json::array({{{"email", "ada@old.example"}, {"primary", false}, {"verified", true}},
                        {{"email", "ada@example.com"}, {"primary", true}, {"verified", true}}})},
          {"orgs", json::array({{{"login", "acme"}}})},
          {"teams", json::array({{{"slug", "design"}, {"organization", {{"login", "acme"}}}}})}}},
        {"gho_nomail",
         {{"user", {{"id", 99}, {"login", "nomail"}}},
          {"emails",
           json::array({{{"email", "x@example.com"}, {"primary", true}, {"verified", false}}})},
          {"orgs", json::array()},
          {"teams", json::array()}}}}}}}};

struct GitHubSignIn {
    ProviderStandin github{StandinOptions{}};
    TempDir secrets;
    std::unique_ptr<InProcessServer> server;

    GitHubSignIn() {
        github.set_data(ada_data);
        const std::string secret_file = secrets.path() + "/github.secret";
        std::ofstream(secret_file) << "s3cret\n";
        ServerOptions options;
        options.plugins = {"auth", "builds", "web", "sso"};
        options.settings = {{"auth.oidc.github.kind", "github"},
                            {"auth.oidc.github.issuer", github.github_url()},
                            {"auth.oidc.github.api_url", github.github_url()},
                            {"auth.oidc.github.client_id", "Iv1.loupe"},
                            {"auth.oidc.github.client_secret_file", secret_file},
                            {"auth.oidc.github.name", "GitHub"},
                            {"auth.oidc.github.roles.acme/design", "default:member"}};
        server = std::make_unique<InProcessServer>(options);
    }

    struct Started {
        std::string location;
        std::string state;
        std::string cookie;  ///< "name=value" of the state cookie
    };
    Started start() const {
        const auto started =
            http(HttpCall{"GET",
                          server->base_url() + "/_loupe/sso/oidc/github/start?next=/default",
                          "",
                          "",
                          std::nullopt,
                          {}});
        REQUIRE_MESSAGE(started.status == 302, started.body);
        Started out;
        out.location = started.header("location");
        for (const auto& [name, value] : Poco::URI(out.location).getQueryParameters()) {
            if (name == "state") {
                out.state = value;
            }
        }
        const std::string cookie = started.header("set-cookie");
        out.cookie = cookie.substr(0, cookie.find(';'));
        return out;
    }
    HttpResult callback(const Started& started, const std::string& code,
                        const std::string& cookie) const {
        return http(HttpCall{"GET",
                             server->base_url() + "/_loupe/sso/oidc/github/callback?code=" + code +
                                 "&state=" + started.state,
                             "",
                             "",
                             std::nullopt,
                             {{"Cookie", cookie}}});
    }
};

/// The session cookie ("loupe_session=…") among the answer's Set-Cookie lines.
std::string session_cookie(const HttpResult& answer) {
    std::string lines = answer.header("set-cookie") + "\n";
    for (std::size_t start = 0, end; (end = lines.find('\n', start)) != std::string::npos;
         start = end + 1) {
        const std::string line = lines.substr(start, end - start);
        if (line.starts_with("loupe_session=")) {
            return line.substr(0, line.find(';'));
        }
    }
    return "";
}

}  // namespace

TEST_CASE("GitHub sign-in: a new person with a verified address, their team role, a session") {
    GitHubSignIn f;
    const auto started = f.start();
    CHECK(started.location.starts_with(f.github.github_url() +
                                       "/login/oauth/authorize?client_id=Iv1.loupe&"));
    CHECK(started.location.find("code_challenge_method=S256") != std::string::npos);
    CHECK(started.location.find("scope=read%3Auser%20user%3Aemail%20read%3Aorg") !=
          std::string::npos);
    REQUIRE_FALSE(started.state.empty());

    const auto signed_in = f.callback(started, "code-ada", started.cookie);
    REQUIRE_MESSAGE(signed_in.status == 302, signed_in.body);
    CHECK(signed_in.header("location") == "/default");
    const std::string cookie = session_cookie(signed_in);
    REQUIRE_FALSE(cookie.empty());
    const auto session = http(HttpCall{"GET",
                                       f.server->base_url() + "/_loupe/session",
                                       "",
                                       "",
                                       std::nullopt,
                                       {{"Cookie", cookie}}});
    REQUIRE(session.status == 200);
    CHECK(session.json()["user"]["name"] == "Ada Lovelace");
    auto db = open_server_database(*f.server);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM users WHERE email = 'ada@example.com'") == 1);
    // acme/design maps to a member of the team default.
    CHECK(query_number(*db,
                       "SELECT COUNT(*) FROM team_members m JOIN users u ON u.id = m.user_id JOIN "
                       "accounts a ON a.id = m.account_id WHERE u.email = 'ada@example.com' AND "
                       "a.slug = 'default' AND m.role = 'member'") == 1);

    // Signing in again finds the same person (linked by GitHub's user id).
    const auto again = f.start();
    REQUIRE(f.callback(again, "code-ada", again.cookie).status == 302);
    CHECK(query_number(*db, "SELECT COUNT(*) FROM users WHERE email = 'ada@example.com'") == 1);
}

TEST_CASE("GitHub sign-in: refusals end on the sign-in page, signed in as no one") {
    GitHubSignIn f;
    const auto refused_location = [](const HttpResult& answer) {
        return answer.status == 302 && answer.header("location").starts_with("/_loupe/login?") &&
               session_cookie(answer).empty();
    };
    SUBCASE("a code GitHub refuses") {
        const auto started = f.start();
        const auto answer = f.callback(started, "code-forged", started.cookie);
        CHECK(refused_location(answer));
        CHECK(answer.header("location").find("GitHub%20refused%20the%20sign-in") !=
              std::string::npos);
    }
    SUBCASE("no verified address") {
        const auto started = f.start();
        CHECK(refused_location(f.callback(started, "code-nomail", started.cookie)));
        auto db = open_server_database(*f.server);
        CHECK(query_number(*db, "SELECT COUNT(*) FROM users WHERE slug = 'nomail'") == 0);
    }
    SUBCASE("a state this browser did not start") {
        const auto started = f.start();
        CHECK(refused_location(f.callback(started, "code-ada", "loupe_sso_state=other")));
        CHECK(f.github.count("github_oauth_token") == 0);
    }
}
