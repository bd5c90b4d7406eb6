// End to end: deployed sites served by Loupe (content, types, ETag/304, index pages, SPA
// fallbacks, ranges, gzip, traversal attempts, aliases, access to private sites, sites on
// their own host), on SQLite or PostgreSQL.
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

HttpResult get(const ServerProcess& server, const std::string& path,
               std::map<std::string, std::string> headers = {}) {
    return http(
        HttpCall{"GET", server.base_url() + path, "", "", std::nullopt, std::move(headers)});
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

    // Content types as declared; binary bytes intact; the API prefix works too.
    result = get(server, "/v2" + site + "img/logo.png");
    CHECK(result.status == 200);
    CHECK(result.header("content-type") == "image/png");
    CHECK(result.body == png);

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
        HttpCall{"HEAD", server.base_url() + site + "assets/main.js", "", "", std::nullopt, {}});
    CHECK(head.status == 200);
    CHECK(head.body.empty());
    CHECK(head.header("content-length") == std::to_string(script.size()));

    // Unknown paths: the site's 404.html with status 404.
    for (const char* missing : {"nope.js", "nope", "docs/nope/deeper"}) {
        CAPTURE(missing);
        result = get(server, site + missing);
        CHECK(result.status == 404);
        CHECK(result.body == "<!doctype html><title>not here</title>");
    }
    CHECK(get(server, "/d/default-zzzzzzzzz-default/").status == 404);
    CHECK(get(server, "/d/Not_A_Name/").status == 404);
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
        const auto result = raw_get(server, site + attempt);
        CHECK(result.status == 404);
        CHECK(result.body.find("home") == std::string::npos);
        CHECK(result.body.find("docs") == std::string::npos);
        CHECK(result.body.find("projectToken") == std::string::npos);
    }
    // The bytes of a blob are reachable only through a declared path.
    const std::string key = sha256_hex("<p>home</p>");
    CHECK(raw_get(server, site + key).status == 404);
    CHECK(raw_get(server, site + "blobs/" + key.substr(0, 2) + "/" + key.substr(2, 2) + "/" + key)
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
    const std::string alias = "/d/default-feature-login-default/";
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
    CHECK(get(server, "/d/default-default/").body == "<p>prod</p>");
    CHECK(get(server, "/d/default-main-default/").body == "<p>prod</p>");
}

TEST_CASE("deployments: a private project's site needs a signed link or its cookie") {
    ServerProcess server(deployments_server_options({{"plugins.deployments.cache_ttl_ms", "0"}}));
    // The bootstrap project is private and the default `auth` follows the project.
    const auto deployment =
        deploy(server, {{"index.html", "<p>secret</p>"}, {"app.js", "run();", "text/javascript"}});
    const std::string url = deployment["url"];
    const auto query = url.find("?loupe_access=");
    REQUIRE(query != std::string::npos);
    const std::string site = site_path(deployment);
    const std::string token = url.substr(query + 14);

    auto result = get(server, site);
    CHECK(result.status == 401);
    CHECK(result.body.find("secret") == std::string::npos);
    CHECK(get(server, site + "app.js").status == 401);

    result = get(server, site + "?loupe_access=" + token);
    CHECK(result.status == 200);
    CHECK(result.body == "<p>secret</p>");
    CHECK(result.header("cache-control") == "private, max-age=31536000, immutable");
    const std::string cookie = result.header("set-cookie");
    CHECK(cookie.rfind("loupe_site_access=" + token + "; Path=" + site + "; Max-Age=", 0) == 0);
    CHECK(cookie.find("HttpOnly; SameSite=Lax") != std::string::npos);
    // The site's other pages open with the cookie alone.
    CHECK(get(server, site + "app.js", {{"Cookie", "theme=dark; loupe_site_access=" + token}})
              .status == 200);

    // A token altered, or issued for another site, opens nothing.
    std::string altered = token;
    altered.back() = altered.back() == '0' ? '1' : '0';
    CHECK(get(server, site + "?loupe_access=" + altered).status == 401);
    CHECK(get(server, site, {{"Cookie", "loupe_site_access=" + altered}}).status == 401);
    const auto other = deploy(server, {{"index.html", "<p>other</p>"}}, "other");
    CHECK(get(server, site_path(other) + "?loupe_access=" + token).status == 401);
    CHECK(get(server, site_path(other), {{"Cookie", "loupe_site_access=" + token}}).status == 401);

    // `loupe admin deployments link` signs any site name; an expired link stops working.
    const auto link = admin_json(server, {"deployments", "link", "--site",
                                          "default-feature-x-default", "--expires-in", "4s"});
    const std::string alias_url = link["url"];
    const std::string alias_path = alias_url.substr(alias_url.find("/d/"));
    CHECK(get(server, alias_path).status == 200);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 200;
    while ((status = get(server, alias_path).status) == 200 &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    CHECK(status == 401);

    // auth=public opens every site; domain-private only the production alias.
    admin_json(server, {"deployments", "settings", "--project", "default/default", "--auth",
                        "domain-private"});
    deploy(server, {{"index.html", "<p>prod</p>"}}, "main");
    CHECK(get(server, "/d/default-default/").status == 200);
    CHECK(get(server, "/d/default-main-default/").status == 401);
    admin_json(server,
               {"deployments", "settings", "--project", "default/default", "--auth", "public"});
    CHECK(get(server, site).status == 200);
    const auto open = deploy(server, {{"index.html", "<p>open</p>"}}, "open");
    CHECK(open["url"].get<std::string>().find('?') == std::string::npos);
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
    // On a site's host every path is the site's, even one the API also has.
    result = raw_get(server, "/project", {"Host: " + host + port});
    CHECK(result.status == 200);
    CHECK(result.body == "a file named like an API route");
    CHECK(raw_get(server, "/v2/project", {"Host: " + host}).status == 404);
    CHECK(raw_get(server, "/", {"Host: default-feature-x-default.deploy.test"}).body ==
          "<p>hosted</p>");
    CHECK(raw_get(server, "/", {"Host: nothing-here.deploy.test"}).status == 404);
    CHECK(raw_get(server, "/", {"Host: a." + host}).status == 404);
    // The API keeps answering on its own host.
    CHECK(http_get(server.base_url() + "/v2/project", server.project_token()).status == 200);
}
