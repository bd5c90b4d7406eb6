// End to end: deployed sites served by Loupe on an origin of their own, the sites listener or
// {site}.{domain} (content, types, ETag/304, index pages, SPA fallbacks, ranges, gzip,
// traversal attempts, aliases, private links, the sandbox every answer carries, the review
// host's redirects), on SQLite or PostgreSQL.
#include <Poco/InflatingStream.h>
#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "deployments_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

const std::string script = [] {
    std::string text;
    for (int i = 0; i < 200; ++i) {
        text += "export const value" + std::to_string(i) + " = \"a fairly repetitive line\";\n";
    }
    return text;
}();
const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(600, '\x07');

std::vector<SiteFileSpec> storybook_like() {
    return {{"index.html", "<!doctype html><title>home</title>"},
            {"docs/index.html", "<!doctype html><title>docs</title>"},
            {"docs/guide.html", "<!doctype html><title>guide</title>"},
            {"assets/main.js", script, "application/javascript"},
            {"img/logo.png", png, "image/png"},
            {"404.html", "<!doctype html><title>not here</title>"}};
}

/// GET on the sites listener.
HttpResult get(const ServerProcess& server, const std::string& path,
               std::map<std::string, std::string> headers = {}) {
    return http(
        HttpCall{"GET", sites_url(server) + path, "", "", std::nullopt, std::move(headers)});
}

/// What every answer of a site carries, whatever its status.
void check_user_content_headers(const HttpResult& result) {
    CHECK(result.header("content-security-policy") ==
          "sandbox allow-scripts allow-forms allow-popups");
    CHECK(result.header("x-content-type-options") == "nosniff");
    CHECK(result.header("referrer-policy") == "no-referrer");
    CHECK(result.header("access-control-allow-origin") == "*");
    CHECK(result.header("set-cookie").empty());
}

std::string gunzip(const std::string& bytes) {
    std::istringstream in(bytes);
    Poco::InflatingInputStream inflater(in, Poco::InflatingStreamBuf::STREAM_GZIP);
    std::ostringstream out;
    out << inflater.rdbuf();
    return out.str();
}

/// Polls until the compression job made the gzip variant of `path` (it runs after finalize).
HttpResult gzipped(const ServerProcess& server, const std::string& path) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (true) {
        auto result = get(server, path, {{"Accept-Encoding", "gzip, deflate"}});
        if (result.header("content-encoding") == "gzip" ||
            std::chrono::steady_clock::now() > deadline) {
            return result;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

void make_public(const ServerProcess& server) {
    admin_json(server,
               {"deployments", "settings", "--project", "default/default", "--auth", "public"});
}

}  // namespace

TEST_CASE("deployments: a site is served with its types, ETags, index pages, ranges and gzip") {
    ServerProcess server(deployments_server_options());
    make_public(server);
    const auto deployment = deploy(server, storybook_like());
    const std::string site = site_path(deployment);  // /d/<slug>/

    // The root and a directory serve their index.html; without the slash, a redirect.
    auto result = get(server, site);
    CHECK(result.status == 200);
    CHECK(result.body == "<!doctype html><title>home</title>");
    CHECK(result.header("content-type") == "text/html");
    CHECK(result.header("etag") == "\"" + sha256_hex(result.body) + "\"");
    CHECK(result.header("cache-control") == "public, max-age=31536000, immutable");
    CHECK(result.header("x-content-type-options") == "nosniff");
    result = get(server, site.substr(0, site.size() - 1));
    CHECK(result.status == 308);
    CHECK(result.header("location") == site);
    result = get(server, site + "docs");
    CHECK(result.status == 308);
    CHECK(result.header("location") == site + "docs/");
    CHECK(get(server, site + "docs/").body == "<!doctype html><title>docs</title>");
    CHECK(get(server, site + "docs/guide.html").body == "<!doctype html><title>guide</title>");

    // Content types as declared; binary bytes intact.
    result = get(server, site + "img/logo.png");
    CHECK(result.status == 200);
    CHECK(result.header("content-type") == "image/png");
    CHECK(result.body == png);
    check_user_content_headers(result);

    // ETag revalidation.
    const std::string etag = "\"" + sha256_hex(script) + "\"";
    result = get(server, site + "assets/main.js", {{"If-None-Match", etag}});
    CHECK(result.status == 304);
    CHECK(result.body.empty());
    CHECK(result.header("etag") == etag);
    CHECK(
        get(server, site + "assets/main.js", {{"If-None-Match", "\"other\", W/" + etag}}).status ==
        304);
    CHECK(get(server, site + "assets/main.js", {{"If-None-Match", "\"other\""}}).status == 200);

    // Ranges: first bytes, a suffix, an open end, unsatisfiable, several (whole file).
    result = get(server, site + "assets/main.js", {{"Range", "bytes=0-9"}});
    CHECK(result.status == 206);
    CHECK(result.body == script.substr(0, 10));
    CHECK(result.header("content-range") == "bytes 0-9/" + std::to_string(script.size()));
    result = get(server, site + "img/logo.png", {{"Range", "bytes=-4"}});
    CHECK(result.status == 206);
    CHECK(result.body == png.substr(png.size() - 4));
    result = get(server, site + "img/logo.png", {{"Range", "bytes=600-"}});
    CHECK(result.status == 206);
    CHECK(result.body == png.substr(600));
    result = get(server, site + "img/logo.png", {{"Range", "bytes=5000-"}});
    CHECK(result.status == 416);
    CHECK(result.header("content-range") == "bytes */" + std::to_string(png.size()));
    result = get(server, site + "img/logo.png", {{"Range", "bytes=0-1,4-5"}});
    CHECK(result.status == 200);
    CHECK(result.body == png);
    result = get(server, site + "img/logo.png", {{"Range", "bytes=0-1"}, {"If-Range", "\"old\""}});
    CHECK(result.status == 200);

    // gzip once the compression job ran; the same bytes once inflated.
    result = gzipped(server, site + "assets/main.js");
    REQUIRE(result.header("content-encoding") == "gzip");
    CHECK(result.body.size() < script.size() / 2);
    CHECK(gunzip(result.body) == script);
    CHECK(result.header("vary") == "Accept-Encoding");
    CHECK(result.header("etag") == "\"" + sha256_hex(script) + "-gzip\"");
    CHECK(get(server, site + "assets/main.js", {{"Accept-Encoding", "gzip;q=0"}}).body == script);
    CHECK(get(server, site + "assets/main.js").body == script);
    // Images are not recompressed.
    CHECK(get(server, site + "img/logo.png", {{"Accept-Encoding", "gzip"}})
              .header("content-encoding")
              .empty());

    // HEAD: the headers without the body.
    const auto head = http(
        HttpCall{"HEAD", sites_url(server) + site + "assets/main.js", "", "", std::nullopt, {}});
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(head.header("content-length") == std::to_string(script.size()));

    // Unknown paths: the site's 404.html with status 404.
    for (const char* missing : {"nope.js", "nope", "docs/nope/deeper"}) {
        CAPTURE(missing);
        result = get(server, site + missing);
        CHECK(result.status == 404);
        CHECK(result.body == "<!doctype html><title>not here</title>");
        check_user_content_headers(result);
    }
    result = get(server, "/d/default-zzzzzzzzz-default/");
    CHECK(result.status == 404);
    check_user_content_headers(result);
    CHECK(get(server, "/d/Not_A_Name/").status == 404);
    result = get(server, site.substr(0, site.size() - 1));
    CHECK(result.status == 308);
    check_user_content_headers(result);
}

TEST_CASE("deployments: sites are never served on the review page's origin") {
    ServerProcess server(deployments_server_options());
    make_public(server);
    const auto deployment =
        deploy(server, {{"index.html", "<p>home</p>"}, {"docs/a b.html", "<p>spaced</p>"}});
    const std::string site = site_path(deployment);
    const std::string sites = sites_url(server);
    // The URL the API hands out is on the sites listener, another origin than the API's.
    CHECK(deployment["url"].get<std::string>().rfind(sites + "/d/default-", 0) == 0);
    CHECK(sites != server.base_url());
    CHECK(get(server, site).body == "<p>home</p>");

    // On the review page's host, /d/... answers a redirect there, path and query kept (so an
    // old link, or one written by hand, still opens the site).
    for (const std::string prefix : {"", "/v2"}) {
        CAPTURE(prefix);
        auto result = raw_get(server, prefix + site + "docs/a%20b.html?path=/story/x&y=1");
        CHECK(result.status == 308);
        CHECK(result.header("location") == sites + site + "docs/a%20b.html?path=/story/x&y=1");
        CHECK(result.body.find("spaced") == std::string::npos);
        result = raw_get(server, prefix + site.substr(0, site.size() - 1));
        CHECK(result.status == 308);
        CHECK(result.header("location") == sites + site);
    }
    CHECK(raw_get(server, "/d/Not_A_Name/").status == 404);

    // The sites listener serves sites only: no API, no session, no core route.
    for (const std::string& path :
         std::vector<std::string>{"/v2/project", "/project", "/_loupe/session", "/healthz",
                                  "/v2/deployments", "/v2" + site, "/"}) {
        CAPTURE(path);
        CHECK(raw_get(server, path, {}, sites_port(server)).status == 404);
    }
    const auto with_token =
        http(HttpCall{"GET", sites + "/v2/project", "", "", server.project_token(), {}});
    CHECK(with_token.status == 404);
    // Whatever cookie the browser sends along (the review page's session shares the host), no
    // answer sets one.
    const auto with_cookie =
        get(server, site, {{"Cookie", "loupe_session=" + std::string(64, 'a')}});
    CHECK(with_cookie.status == 200);
    check_user_content_headers(with_cookie);
}

TEST_CASE("deployments: a domain next to the review page's host is refused at start") {
    for (const auto& [public_url, domain] : std::vector<std::pair<std::string, std::string>>{
             {"https://loupe.example.com", "loupe.example.com"},
             {"https://loupe.example.com", "example.com"},
             {"https://loupe.example.com/", "EXAMPLE.com."},
             {"http://127.0.0.1:8080", "127.0.0.1"}}) {
        CAPTURE(domain);
        std::string out;
        try {
            ServerProcess server(deployments_server_options(
                {{"http.public_url", public_url}, {"plugins.deployments.domain", domain}}));
            FAIL("loupe serve started");
        } catch (const std::runtime_error& error) {
            out = error.what();
        }
        CHECK(out.find("plugins.deployments.domain") != std::string::npos);
    }
}

TEST_CASE("deployments: no request path reaches outside the deployment's file table") {
    ServerProcess server(deployments_server_options());
    make_public(server);
    const auto deployment =
        deploy(server, {{"index.html", "<p>home</p>"}, {"docs/index.html", "<p>docs</p>"}});
    const std::string site = site_path(deployment);
    // Files that exist on the server's disk, relative to every folder a naive join could use.
    for (const std::string attempt :
         {"..%2f..%2f..%2fsecret.key", "..%2F..%2Fbootstrap.json", "%2e%2e/%2e%2e/secret.key",
          "%2e%2e%2f%2e%2e%2fsecret.key", "docs/..%2findex.html", "docs/%2e%2e/index.html",
          "%252e%252e%252fsecret.key", "%252e%252e/%252e%252e/secret.key",
          "%c0%ae%c0%ae/%c0%ae%c0%ae/secret.key", "%c0%ae%c0%ae%c0%afsecret.key",
          "%e0%80%ae%e0%80%ae/secret.key", "..%5c..%5csecret.key", "..\\..\\secret.key",
          "docs%2f..%2f..%2fsecret.key", "%00index.html", "index.html%00.png", "/etc/passwd",
          "../../../../etc/passwd", "docs/../../../../etc/passwd"}) {
        CAPTURE(attempt);
        const auto result = raw_get(server, site + attempt, {}, sites_port(server));
        CHECK(result.status == 404);
        CHECK(result.body.find("home") == std::string::npos);
        CHECK(result.body.find("docs") == std::string::npos);
        CHECK(result.body.find("projectToken") == std::string::npos);
    }
    // The bytes of a blob are reachable only through a declared path.
    const std::string key = sha256_hex("<p>home</p>");
    CHECK(raw_get(server, site + key, {}, sites_port(server)).status == 404);
    CHECK(raw_get(server, site + "blobs/" + key.substr(0, 2) + "/" + key.substr(2, 2) + "/" + key,
                  {}, sites_port(server))
              .status == 404);
}

TEST_CASE("deployments: single-page apps fall back to index.html or 200.html") {
    ServerProcess server(deployments_server_options());
    make_public(server);
    const std::vector<SiteFileSpec> app = {{"index.html", "<p>app</p>"},
                                           {"app.js", "start();", "text/javascript"}};
    const std::string spa = site_path(deploy(server, app, "spa", {{"spa", true}}));
    auto result = get(server, spa + "settings/profile");
    CHECK(result.status == 200);
    CHECK(result.body == "<p>app</p>");
    CHECK(get(server, spa + "missing.js").status == 404);  // assets never fall back

    const std::string plain = site_path(deploy(server, app, "plain"));
    CHECK(get(server, plain + "settings/profile").status == 404);

    auto with_200 = app;
    with_200.push_back({"200.html", "<p>fallback</p>"});
    const std::string surge = site_path(deploy(server, with_200, "surge"));
    result = get(server, surge + "any/route");
    CHECK(result.status == 200);
    CHECK(result.body == "<p>fallback</p>");
    CHECK(get(server, surge).body == "<p>app</p>");
}

TEST_CASE("deployments: the branch alias follows the newest deployment of its branch") {
    ServerProcess server(deployments_server_options());
    make_public(server);
    const auto v1 = deploy(server, {{"index.html", "<p>v1</p>"}}, "feature/login");
    const std::string alias = "/d/default--feature-login--default/";
    auto result = get(server, alias);
    CHECK(result.status == 200);
    CHECK(result.body == "<p>v1</p>");
    CHECK(result.header("cache-control") == "public, max-age=60, must-revalidate");

    // Created before v3 but finalized after it: the alias stays on the newer deployment.
    const std::vector<SiteFileSpec> v2_files = {{"index.html", "<p>v2</p>"}};
    const auto v2 = create_deployment(server, deployment_body(v2_files, "feature/login"));
    REQUIRE(v2.status == 201);
    const auto v3 = deploy(server, {{"index.html", "<p>v3</p>"}}, "feature/login");
    upload_listed(v2.json(), v2_files);
    REQUIRE(finalize_deployment(server, v2.json()["deploymentId"]).status == 200);

    // Aliases are resolved again after the catalog's short cache (2 s by default): poll.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((result = get(server, alias)).body != "<p>v3</p>" &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(result.body == "<p>v3</p>");
    // Every slug still serves its own content.
    CHECK(get(server, site_path(v1)).body == "<p>v1</p>");
    CHECK(get(server, site_path(v3)).body == "<p>v3</p>");

    // A production deployment also takes the project's production alias.
    const auto production = deploy(server, {{"index.html", "<p>prod</p>"}}, "main");
    CHECK(production["environment"] == "production");
    CHECK(get(server, "/d/default--default/").body == "<p>prod</p>");
    CHECK(get(server, "/d/default--main--default/").body == "<p>prod</p>");
}

TEST_CASE("deployments: a private project's site opens only through a private link") {
    ServerProcess server(deployments_server_options({{"plugins.deployments.cache_ttl_ms", "0"}}));
    // The bootstrap project is private and the default `auth` follows the project.
    const auto deployment =
        deploy(server, {{"index.html", "<p>secret</p>"}, {"app.js", "run();", "text/javascript"}});
    const std::string id = deployment["id"];
    const std::string url = deployment["url"];
    // The URL is a link whose key stands where the site's name stands: every request of the
    // page carries it (a sandboxed page's own requests send no cookie).
    CHECK(url.find('?') == std::string::npos);
    const std::string link = site_path(deployment);
    const std::string key = link.substr(3, link.size() - 4);
    CHECK(key.size() == 32);
    CHECK(key.find('-') == std::string::npos);

    const std::string by_name = "/d/default--feature-x--default/";
    auto result = get(server, by_name);
    CHECK(result.status == 401);
    CHECK(result.body.find("secret") == std::string::npos);
    check_user_content_headers(result);
    CHECK(get(server, by_name + "app.js").status == 401);

    result = get(server, link);
    CHECK(result.status == 200);
    CHECK(result.body == "<p>secret</p>");
    CHECK(result.header("cache-control") == "private, no-cache");
    CHECK(result.header("x-robots-tag") == "noindex, nofollow");
    check_user_content_headers(result);
    CHECK(get(server, link + "app.js").body == "run();");
    std::string altered = key;
    altered.back() = altered.back() == 'a' ? 'b' : 'a';
    CHECK(get(server, "/d/" + altered + "/").status == 401);

    // The API hands the same link out while it has most of its life left: no row per call.
    CHECK(http_get(server.base_url() + "/v2/deployments/" + id, server.project_token())
              .json()["url"] == url);
    CHECK(count_rows(server, "SELECT COUNT(*) FROM deployment_links") == 1);

    // A link opens what it was issued for: the deployment its name reached then, even after
    // the alias moved on. The API's link for the alias follows the alias.
    const auto pinned =
        admin_json(server, {"deployments", "link", "--site", "default--feature-x--default"});
    CHECK(pinned["deploymentId"] == id);
    const std::string pinned_url = pinned["url"];
    const std::string pinned_path = pinned_url.substr(pinned_url.find("/d/"));
    deploy(server, {{"index.html", "<p>newer</p>"}});
    CHECK(get(server, pinned_path).body == "<p>secret</p>");
    const auto listed = http_get(server.base_url() + "/v2/projects/default/default/deployments",
                                 server.project_token())
                            .json();
    const std::string alias_url = listed["results"][0]["aliases"][0]["url"];
    CHECK(get(server, alias_url.substr(alias_url.find("/d/"))).body == "<p>newer</p>");

    // Revoked, a link stops opening the site; the others keep working.
    // Live: the API's links to both slugs and to the alias, and the one issued by hand.
    auto links = admin_json(server, {"deployments", "links", "--project", "default/default"});
    CHECK(links["links"].size() == 4);
    CHECK(admin_json(server, {"deployments", "revoke-link", "--project", "default/default", "--id",
                              pinned["id"]})["revoked"] == 1);
    result = get(server, pinned_path);
    CHECK(result.status == 401);
    CHECK(result.body.find("expired or was revoked") != std::string::npos);
    CHECK(get(server, link).status == 200);

    // The same through the API, for a person with admin on the project.
    const std::string api = server.base_url() + "/v2/projects/default/default/deployments/links";
    const auto listed_links = http_get(api, server.personal_token());
    REQUIRE(listed_links.status == 200);
    CHECK(listed_links.json().size() == 3);
    CHECK(http_get(api, server.project_token()).status == 403);
    CHECK(http_get(api).status == 401);
    const std::string first_id = listed_links.json()[0]["id"];
    result = http(HttpCall{"DELETE", api + "/" + first_id, "", "", server.personal_token(), {}});
    CHECK(result.status == 204);
    result = http(HttpCall{"DELETE", api + "/" + first_id, "", "", server.personal_token(), {}});
    CHECK(result.status == 404);
    CHECK(result.json()["error"] == "Link not found");
    result = http(HttpCall{"DELETE", api, "", "", server.personal_token(), {}});
    CHECK(result.status == 200);
    CHECK(result.json()["revoked"] == 2);
    CHECK(get(server, link).status == 401);
    CHECK(http_get(api, server.personal_token()).json().empty());
    // The API hands out a new link afterwards.
    const std::string renewed =
        http_get(server.base_url() + "/v2/deployments/" + id, server.project_token()).json()["url"];
    CHECK(renewed != url);
    CHECK(get(server, renewed.substr(renewed.find("/d/"))).body == "<p>secret</p>");

    // An expired link stops working.
    const auto brief = admin_json(server, {"deployments", "link", "--site",
                                           "default--feature-x--default", "--expires-in", "4s"});
    const std::string brief_url = brief["url"];
    const std::string brief_path = brief_url.substr(brief_url.find("/d/"));
    CHECK(get(server, brief_path).status == 200);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 200;
    while ((status = get(server, brief_path).status) == 200 &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    CHECK(status == 401);

    // auth=public opens every site by its name; domain-private only the production alias.
    admin_json(server, {"deployments", "settings", "--project", "default/default", "--auth",
                        "domain-private"});
    deploy(server, {{"index.html", "<p>prod</p>"}}, "main");
    CHECK(get(server, "/d/default--default/").status == 200);
    CHECK(get(server, "/d/default--main--default/").status == 401);
    admin_json(server,
               {"deployments", "settings", "--project", "default/default", "--auth", "public"});
    CHECK(get(server, by_name).status == 200);
    const auto open = deploy(server, {{"index.html", "<p>open</p>"}}, "open");
    CHECK(site_path(open).rfind("/d/default-", 0) == 0);
}

TEST_CASE("deployments: with plugins.deployments.domain, each site answers on its own host") {
    ServerProcess server(
        deployments_server_options({{"plugins.deployments.domain", "deploy.test"},
                                    {"plugins.deployments.domain_scheme", "http"}}));
    make_public(server);
    const auto deployment =
        deploy(server, {{"index.html", "<p>hosted</p>"},
                        {"project", "a file named like an API route", "text/plain"}});
    const std::string url = deployment["url"];
    REQUIRE(url.rfind("http://default-", 0) == 0);
    REQUIRE(url.ends_with("-default.deploy.test/"));
    const std::string host = url.substr(7, url.size() - 8);
    const std::string port = ":" + std::to_string(server.port());

    auto result = raw_get(server, "/", {"Host: " + host + port});
    CHECK(result.status == 200);
    CHECK(result.body == "<p>hosted</p>");
    check_user_content_headers(result);
    // The review page's host serves no site: /d/... redirects to the site's own host.
    const std::string slug = host.substr(0, host.find('.'));
    result = raw_get(server, "/d/" + slug + "/docs/x.html?a=1");
    CHECK(result.status == 308);
    CHECK(result.header("location") == "http://" + host + "/docs/x.html?a=1");
    CHECK(raw_get(server, "/v2/d/" + slug + "/").header("location") == url);
    // On a site's host every path is the site's, even one the API also has.
    result = raw_get(server, "/project", {"Host: " + host + port});
    CHECK(result.status == 200);
    CHECK(result.body == "a file named like an API route");
    CHECK(raw_get(server, "/v2/project", {"Host: " + host}).status == 404);
    CHECK(raw_get(server, "/", {"Host: default--feature-x--default.deploy.test"}).body ==
          "<p>hosted</p>");
    CHECK(raw_get(server, "/", {"Host: nothing-here.deploy.test"}).status == 404);
    CHECK(raw_get(server, "/", {"Host: a." + host}).status == 404);
    // The API keeps answering on its own host.
    CHECK(http_get(server.base_url() + "/v2/project", server.project_token()).status == 200);
}
