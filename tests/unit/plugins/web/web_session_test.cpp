// End to end: the real `loupe serve` with the web plugin. Sign-in by personal access token and
// by one-time link, the session cookie on API calls, the CSRF check on every write, sign-out,
// and the pages served to a browser.
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "db/database_impl.hpp"
#include "session/session_tokens.hpp"
#include "support/http_client.hpp"
#include "support/server_process.hpp"

using loupe::test::http;
using loupe::test::HttpCall;
using loupe::test::HttpResult;
using loupe::test::ServerProcess;
using nlohmann::json;

namespace {

ServerProcess& server() {
    static ServerProcess instance(loupe::test::ServerOptions{{"auth", "builds", "web"}, {}, {}});
    return instance;
}

std::string url(const std::string& path) {
    return server().base_url() + path;
}

/// What a browser's navigation asks for.
const std::map<std::string, std::string> browser_accept{
    {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}};

struct Browser {
    std::string cookie;  ///< the session token
    std::string csrf;

    HttpResult call(const std::string& method, const std::string& path, const json& body = nullptr,
                    bool with_csrf = true, std::map<std::string, std::string> headers = {}) const {
        HttpCall request{
            method,       url(path),         body.is_null() ? "" : body.dump(), "application/json",
            std::nullopt, std::move(headers)};
        if (!cookie.empty()) {
            request.headers["Cookie"] = "theme=dark; loupe_session=" + cookie;
        }
        if (with_csrf && !csrf.empty()) {
            request.headers["X-CSRF-Token"] = csrf;
        }
        return http(request);
    }
};

std::string session_token_of(const HttpResult& result) {
    static const std::regex cookie("loupe_session=([0-9a-f]{64});");
    std::smatch match;
    const std::string header = result.header("set-cookie");
    REQUIRE(std::regex_search(header, match, cookie));
    return match[1];
}

Browser sign_in_with_token(const std::string& token) {
    const auto result =
        http(HttpCall{"POST", url("/_loupe/session"), "", "application/json", token, {}});
    INFO(result.body);
    REQUIRE(result.status == 201);
    return Browser{session_token_of(result), result.json().at("csrfToken").get<std::string>()};
}

json admin_json(std::vector<std::string> args) {
    args.insert(args.begin(), "admin");
    args.push_back("--json");
    std::string out;
    const int code = server().run_cli(args, out);
    INFO(out);
    REQUIRE(code == 0);
    const auto start = out.find('{');
    REQUIRE(start != std::string::npos);
    return json::parse(out.substr(start, out.rfind('}') - start + 1));
}

std::string link_token_of(const std::string& link) {
    const auto at = link.find("/_loupe/login#link=");
    REQUIRE(at != std::string::npos);
    return link.substr(at + std::string("/_loupe/login#link=").size());
}

HttpResult use_link(const std::string& token, std::map<std::string, std::string> headers = {}) {
    return http(HttpCall{"POST", url("/_loupe/session/link"), json{{"token", token}}.dump(),
                         "application/json", std::nullopt, std::move(headers)});
}

const std::string builds_path = "/v2/projects/default/default/builds";

}  // namespace

// One server for the whole file: each SUBCASE signs in afresh.
TEST_CASE("web plugin: sessions, sign-in links, CSRF and pages") {
    SUBCASE("a personal access token signs a browser in; the cookie then opens the API") {
        const auto anonymous =
            http(HttpCall{"GET", url("/_loupe/session"), "", "", std::nullopt, {}});
        REQUIRE(anonymous.status == 200);
        CHECK(anonymous.json().at("user").is_null());
        CHECK(anonymous.header("cache-control") == "no-store");

        const auto result = http(HttpCall{
            "POST", url("/_loupe/session"), "", "application/json", server().personal_token(), {}});
        REQUIRE(result.status == 201);
        const std::string set_cookie = result.header("set-cookie");
        CHECK(set_cookie.find("HttpOnly") != std::string::npos);
        CHECK(set_cookie.find("SameSite=Lax") != std::string::npos);
        CHECK(set_cookie.find("Secure") == std::string::npos);  // the public URL is http here
        const Browser browser{session_token_of(result), result.json().at("csrfToken")};
        CHECK(result.json().at("user").at("slug") == "admin");
        CHECK(result.json().at("accounts") == json::array({"default"}));
        CHECK(browser.csrf == loupe::web::csrf_token(browser.cookie));

        const auto session = browser.call("GET", "/_loupe/session");
        CHECK(session.json().at("user").at("slug") == "admin");
        CHECK(session.json().at("csrfToken") == browser.csrf);
        CHECK(session.json().at("plugins") == json::array({"auth", "builds", "web"}));

        const auto builds = browser.call("GET", builds_path, nullptr, false);
        INFO(builds.body);
        CHECK(builds.status == 200);
        CHECK(builds.json().at("pageInfo").at("total") == 0);

        // Only the hash of the cookie is stored.
        auto database = loupe::open_database(server().database_url(), 1);
        auto sql = database->session();
        long long clear = 0;
        long long hashed = 0;
        *sql << "SELECT COUNT(*) FROM web_sessions WHERE token_hash = :t",
            soci::use(browser.cookie), soci::into(clear);
        const std::string hash = loupe::web::token_hash(browser.cookie);
        *sql << "SELECT COUNT(*) FROM web_sessions WHERE token_hash = :t", soci::use(hash),
            soci::into(hashed);
        CHECK(clear == 0);
        CHECK(hashed == 1);
    }

    SUBCASE("every write with the session cookie needs its CSRF token") {
        const Browser browser = sign_in_with_token(server().personal_token());
        const json project{{"name", "csrf-check"}, {"accountSlug", "default"}};

        const auto without = browser.call("POST", "/v2/projects", project, false);
        CHECK(without.status == 403);
        CHECK(without.json().at("error").get<std::string>().find("CSRF") != std::string::npos);

        Browser wrong = browser;
        wrong.csrf = loupe::web::csrf_token(loupe::web::random_token());
        CHECK(wrong.call("POST", "/v2/projects", project).status == 403);

        const auto with = browser.call("POST", "/v2/projects", project);
        INFO(with.body);
        CHECK(with.status == 201);
        // Reads need no token.
        CHECK(browser.call("GET", "/v2/projects/default/csrf-check", nullptr, false).status == 200);
        // A project-token route still refuses a user, whatever the credential.
        CHECK(browser.call("GET", "/v2/project").status == 401);
        // A session cannot mint another session: that takes a personal access token.
        CHECK(browser.call("POST", "/_loupe/session").status == 401);
    }

    SUBCASE("without a session the API and its data stay closed") {
        CHECK(http(HttpCall{"GET", url(builds_path), "", "", std::nullopt, {}}).status == 401);
        const Browser forged{loupe::web::random_token(), ""};
        const auto refused = forged.call("GET", builds_path);
        CHECK(refused.status == 401);
        CHECK(refused.json().at("error").get<std::string>().find("Sign in again") !=
              std::string::npos);
        const Browser garbage{"not-a-token", ""};
        CHECK(garbage.call("GET", builds_path).status == 401);
        CHECK(forged.call("GET", "/_loupe/session").json().at("user").is_null());
    }

    SUBCASE("signing out ends the session, and only with its CSRF token") {
        const Browser browser = sign_in_with_token(server().personal_token());
        CHECK(browser.call("DELETE", "/_loupe/session", nullptr, false).status == 403);
        CHECK(browser.call("GET", builds_path).status == 200);

        const auto out = browser.call("DELETE", "/_loupe/session");
        CHECK(out.status == 204);
        CHECK(out.header("set-cookie").find("Max-Age=0") != std::string::npos);
        CHECK(browser.call("GET", builds_path).status == 401);
    }

    SUBCASE("a one-time link signs in once, only from this site, and expires") {
        const json issued = admin_json({"user", "login-link", "--user", "admin"});
        CHECK(issued.at("user") == "admin");
        const std::string link = issued.at("url");
        // The command runs outside the server (port 0 here): only the path is certain.
        CHECK(link.find("/_loupe/login#link=") != std::string::npos);
        const std::string token = link_token_of(link);

        CHECK(use_link(token, {{"Origin", "https://evil.example"}}).status == 403);
        CHECK(http(HttpCall{"POST",
                            url("/_loupe/session/link"),
                            json{{"token", token}}.dump(),
                            "text/plain",
                            std::nullopt,
                            {}})
                  .status == 415);  // what a cross-site form can send is not JSON

        const auto first = use_link(token, {{"Origin", server().base_url()}});
        INFO(first.body);
        REQUIRE(first.status == 201);
        const Browser browser{session_token_of(first), first.json().at("csrfToken")};
        CHECK(browser.call("GET", builds_path).status == 200);
        CHECK(use_link(token).status == 401);  // used

        const std::string late =
            link_token_of(admin_json({"user", "login-link", "--user", "admin"}).at("url"));
        {
            auto database = loupe::open_database(server().database_url(), 1);
            auto sql = database->session();
            const std::string hash = loupe::web::token_hash(late);
            *sql << "UPDATE web_login_links SET expires_at = 1 WHERE token_hash = :h",
                soci::use(hash);
        }
        CHECK(use_link(late).status == 401);
        CHECK(use_link("0123").status == 401);

        std::string out;
        CHECK(server().run_cli({"admin", "user", "login-link", "--user", "nobody"}, out) == 1);
        CHECK(server().run_cli({"admin", "user", "login-link"}, out) == 2);
    }

    SUBCASE("revoking the token a session came from, or signing the user out, ends it") {
        const json token =
            admin_json({"token", "create", "--user", "admin", "--account", "default"});
        std::string pat;
        for (const auto& [key, value] : token.items()) {
            if (value.is_string() && value.get<std::string>().starts_with("arp_")) {
                pat = value;
            }
        }
        REQUIRE(pat.size() == 40);
        const Browser from_token = sign_in_with_token(pat);
        CHECK(from_token.call("GET", builds_path).status == 200);
        admin_json({"token", "revoke", "--prefix", pat.substr(0, 12)});
        CHECK(from_token.call("GET", builds_path).status == 401);

        const Browser other = sign_in_with_token(server().personal_token());
        CHECK(other.call("GET", builds_path).status == 200);
        const json signed_out = admin_json({"user", "sign-out", "--user", "admin"});
        CHECK(signed_out.at("revoked").get<int>() >= 1);
        CHECK(other.call("GET", builds_path).status == 401);
    }

    SUBCASE("the first start prints a sign-in link that works") {
        const std::string output = server().output();
        const auto at = output.find("/_loupe/login#link=");
        REQUIRE(at != std::string::npos);
        CHECK(output.find("Review page: sign in as admin") != std::string::npos);
        const std::string token = output.substr(at + std::string("/_loupe/login#link=").size(), 64);
        const auto first = use_link(token);
        CHECK(first.status == 201);
    }

    SUBCASE("every page path answers the page, with its security headers") {
        for (const std::string path : {"/", "/_loupe/login", "/default", "/default/default",
                                       "/default/default/builds", "/default/default/builds/7"}) {
            const auto page =
                http(HttpCall{"GET", url(path), "", "", std::nullopt, browser_accept});
            INFO(path);
            REQUIRE(page.status == 200);
            CHECK(page.header("content-type").starts_with("text/html"));
            CHECK(page.body.find("<div id=\"app\">") != std::string::npos);
            CHECK(page.header("content-security-policy").find("script-src 'self'") !=
                  std::string::npos);
            CHECK(page.header("x-frame-options") == "DENY");
        }
        const auto index = http(HttpCall{"GET", url("/"), "", "", std::nullopt, browser_accept});
        std::smatch match;
        REQUIRE(std::regex_search(index.body, match,
                                  std::regex("/_loupe/assets/([A-Za-z0-9_.-]+\\.js)")));
        const auto script = http(HttpCall{"GET",
                                          url("/_loupe/assets/" + match[1].str()),
                                          "",
                                          "",
                                          std::nullopt,
                                          {{"Accept-Encoding", "gzip"}}});
        CHECK(script.status == 200);
        CHECK(script.header("content-encoding") == "gzip");
        CHECK(script.header("cache-control").find("immutable") != std::string::npos);
        // No way out of the asset folder: a name with a dot first or a slash never reaches
        // the file system (civetweb folds "..%2F" away before routing; the page answers).
        for (const std::string attempt :
             {"/_loupe/assets/.gitignore", "/_loupe/assets/..%2F..%2Fweb.so",
              "/_loupe/assets/%2e%2e%2fweb.so"}) {
            const auto refused = http(HttpCall{"GET", url(attempt), "", "", std::nullopt, {}});
            INFO(attempt);
            CHECK(refused.body.find("ELF") == std::string::npos);
            CHECK_FALSE(refused.header("content-type").starts_with("application/octet-stream"));
        }
        CHECK(http(HttpCall{"GET", url("/_loupe/assets/missing.js"), "", "", std::nullopt, {}})
                  .status == 404);
        // The API keeps its routes: a literal segment wins over a page's capture.
        CHECK(http(HttpCall{"GET", url("/healthz"), "", "", std::nullopt, browser_accept})
                  .header("content-type")
                  .starts_with("application/json"));
    }

    SUBCASE("an API path, or a request that does not ask for HTML, never gets the page") {
        // The official CLI reads every answer as JSON: the page's HTML made it fail with
        // "Unexpected token '<'" on routes this server does not have.
        const std::map<std::string, std::string> cli_accept{{"Accept", "application/json"}};
        const std::map<std::string, std::string> any{{"Accept", "*/*"}};
        // A plain variable, not a structured binding: clang 14 cannot capture a binding in the
        // lambda INFO expands to.
        for (const auto& call :
             std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
                 {"/v2/no-such-resource", cli_accept},
                 {"/v2/accounts/default/no-such-route", cli_accept},
                 {"/v2/no-such-route", cli_accept},
                 {"/v2/no-such-resource", browser_accept},  // under /v2 even a browser gets JSON
                 {"/v2/", browser_accept},
                 {"/default/default", cli_accept},
                 {"/default", any},
                 {"/", {}},
             }) {
            const std::string& path = call.first;
            const std::map<std::string, std::string>& headers = call.second;
            const auto answer = http(HttpCall{"GET", url(path), "", "", std::nullopt, headers});
            INFO(path << " Accept: " << (headers.empty() ? "(none)" : headers.begin()->second));
            CHECK(answer.status == 404);
            CHECK(answer.header("content-type").starts_with("application/json"));
            CHECK(json::parse(answer.body).at("error") == "Not Found");
        }
        // A refused HTML (q=0) is not a request for it.
        const auto refused = http(HttpCall{
            "GET", url("/default"), "", "", std::nullopt, {{"Accept", "text/html;q=0, */*"}}});
        CHECK(refused.status == 404);
    }
}

TEST_CASE("web plugin: behind an https public URL the session cookie is __Host-loupe_session") {
    ServerProcess secure(loupe::test::ServerOptions{
        {"auth", "builds", "web"}, {{"http.public_url", "https://loupe.example.com"}}, {}});
    const std::string base = secure.base_url();
    const auto signed_in = http(HttpCall{
        "POST", base + "/_loupe/session", "", "application/json", secure.personal_token(), {}});
    REQUIRE(signed_in.status == 201);
    const std::string cookie = signed_in.header("set-cookie");
    static const std::regex prefixed("^__Host-loupe_session=([0-9a-f]{64}); Path=/;");
    std::smatch match;
    REQUIRE(std::regex_search(cookie, match, prefixed));
    CHECK(cookie.ends_with("; HttpOnly; SameSite=Lax; Secure"));
    const std::string token = match[1];
    const std::string csrf = signed_in.json().at("csrfToken");

    const auto session_with = [&](const std::string& cookie_header) {
        return http(HttpCall{"GET",
                             base + "/_loupe/session",
                             "",
                             "",
                             std::nullopt,
                             {{"Cookie", cookie_header}}})
            .json();
    };
    // Only the prefixed name opens the session: a plain `loupe_session`, which any host of the
    // same site could set, is not read.
    CHECK_FALSE(session_with("__Host-loupe_session=" + token)["user"].is_null());
    CHECK(session_with("loupe_session=" + token)["user"].is_null());
    CHECK(http(HttpCall{"GET",
                        base + "/v2/projects/default/default/builds",
                        "",
                        "",
                        std::nullopt,
                        {{"Cookie", "loupe_session=" + token}}})
              .status == 401);

    // Sign-out reads and clears the prefixed cookie.
    const auto signed_out =
        http(HttpCall{"DELETE",
                      base + "/_loupe/session",
                      "",
                      "",
                      std::nullopt,
                      {{"Cookie", "__Host-loupe_session=" + token}, {"X-CSRF-Token", csrf}}});
    CHECK(signed_out.status == 204);
    CHECK(signed_out.header("set-cookie").starts_with("__Host-loupe_session=; Path=/; Max-Age=0"));
    CHECK(session_with("__Host-loupe_session=" + token)["user"].is_null());
}
