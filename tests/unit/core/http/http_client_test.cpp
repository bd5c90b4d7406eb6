#include "loupe/http/http_client.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <thread>

#include "http/client/proxy_environment.hpp"
#include "support/local_http_server.hpp"
#include "support/provider_standin.hpp"
#include "support/test_database.hpp"

namespace loupe {
namespace {

using namespace std::chrono_literals;
using test::LocalHttpServer;
using test::LocalReply;
using test::LocalRequest;

/// Fast retries, so the tests do not wait for the production pauses.
HttpCallOptions quick(HttpCallOptions options = {}) {
    options.retry_base = 1ms;
    return options;
}

TEST_CASE("a JSON call carries its body and headers, and the answer is read whole") {
    LocalRequest seen;
    LocalHttpServer server([&](const LocalRequest& request) {
        seen = request;
        return LocalReply{201, {{"X-Answer", "yes"}}, R"({"ok":true})"};
    });
    const HttpClient http;
    const auto reply = http.send_json("POST", server.url() + "/projects/group%2Fapp/statuses?x=1",
                                      Json{{"state", "success"}}, {{"PRIVATE-TOKEN", "secret"}});
    CHECK(reply.status == 201);
    CHECK(reply.ok());
    CHECK(reply.header("x-answer") == "yes");
    CHECK(reply.json() == Json{{"ok", true}});
    CHECK(seen.method == "POST");
    CHECK(seen.target == "/projects/group%2Fapp/statuses?x=1");  // the path as written
    CHECK(Json::parse(seen.body) == Json{{"state", "success"}});
    CHECK(seen.headers.at("content-type") == "application/json");
    CHECK(seen.headers.at("accept") == "application/json");
    CHECK(seen.headers.at("private-token") == "secret");
    CHECK(seen.headers.at("user-agent").starts_with("loupe/"));
    CHECK_FALSE(HttpResponse{200, {}, "not json"}.json().has_value());
}

TEST_CASE("idempotent calls are retried after temporary failures; others are sent once") {
    std::atomic<int> failures_left{2};
    LocalHttpServer server([&](const LocalRequest&) {
        return failures_left-- > 0 ? LocalReply{503, {}, "busy"} : LocalReply{200, {}, "done"};
    });
    const HttpClient http;
    std::vector<int> statuses;
    auto options = quick({.max_attempts = 3});
    options.on_attempt = [&](const HttpAttempt& attempt) { statuses.push_back(attempt.status); };
    const auto reply = http.send({"GET", server.url() + "/a"}, options);
    CHECK(reply.status == 200);
    CHECK(statuses == std::vector<int>{503, 503, 200});

    failures_left = 5;
    statuses.clear();
    CHECK(http.send({"POST", server.url() + "/a"}, options).status == 503);
    CHECK(statuses == std::vector<int>{503});

    options.idempotent = true;  // the caller knows sending it twice does no harm
    statuses.clear();
    CHECK(http.send({"POST", server.url() + "/a"}, options).status == 503);
    CHECK(statuses.size() == 3);  // the last answer comes back when every attempt failed
}

TEST_CASE("an answer over the cap fails, and is not retried") {
    LocalHttpServer server([](const LocalRequest&) {
        return LocalReply{200, {}, std::string(100'000, 'x')};
    });
    const HttpClient http;
    try {
        (void)http.send({"GET", server.url() + "/big"}, quick({.max_response_bytes = 1000}));
        FAIL("no error");
    } catch (const HttpTransportError& error) {
        CHECK(std::string(error.what()).find("larger than 1000 bytes") != std::string::npos);
    }
    CHECK(server.requests() == 1);
    CHECK(http.send({"GET", server.url() + "/big"}).body.size() == 100'000);
}

TEST_CASE("a server that stalls is abandoned at the I/O timeout or the deadline") {
    LocalHttpServer stalling([](const LocalRequest& request) {
        if (request.target == "/slow-body") {
            return LocalReply{200, {}, "late", 3s};
        }
        std::this_thread::sleep_for(3s);
        return LocalReply{200, {}, "late"};
    });
    const HttpClient http;
    const auto started = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(http.send({"GET", stalling.url() + "/slow-body"},
                              quick({.io_timeout = 200ms, .max_attempts = 1})),
                    HttpTransportError);
    CHECK_THROWS_AS(http.send({"GET", stalling.url() + "/slow"},
                              quick({.deadline = deadline_in(300ms), .max_attempts = 5})),
                    HttpTransportError);
    // Well under the server's 3 s pauses (and the 5 attempts the deadline cut short).
    CHECK(std::chrono::steady_clock::now() - started < 2500ms);
}

TEST_CASE("no server: a transport error after the attempts, each reported") {
    int port = 0;
    {
        LocalHttpServer closed([](const LocalRequest&) { return LocalReply{}; });
        port = std::stoi(closed.url().substr(closed.url().rfind(':') + 1));
    }
    const HttpClient http;
    int attempts = 0;
    auto options = quick({.max_attempts = 2});
    options.on_attempt = [&](const HttpAttempt& attempt) {
        ++attempts;
        CHECK(attempt.status == 0);
        CHECK_FALSE(attempt.error.empty());
    };
    CHECK_THROWS_AS(http.send({"GET", "http://127.0.0.1:" + std::to_string(port) + "/"}, options),
                    HttpTransportError);
    CHECK(attempts == 2);
    CHECK_THROWS_AS(http.send({"GET", "ftp://example.com/"}), HttpTransportError);
    CHECK_THROWS_AS(http.send({"GET", "not a url"}), HttpTransportError);
    CHECK(url_path_segment("group/sub app") == "group%2Fsub%20app");
    CHECK(url_query_component("a b&c=d+e/é~_.-") == "a%20b%26c%3Dd%2Be%2F%C3%A9~_.-");
}

TEST_CASE("the environment's proxy is used, except for NO_PROXY and loopback hosts") {
    const std::map<std::string, std::string> environment{
        {"HTTPS_PROXY", "http://user:pw@proxy.internal:3128"},
        {"http_proxy", "proxy.internal:8080"},
        {"NO_PROXY", "internal.example, .corp.example"}};
    const auto lookup = [&](const char* name) -> std::optional<std::string> {
        const auto found = environment.find(name);
        return found == environment.end() ? std::nullopt : std::optional(found->second);
    };
    const auto https = proxy_for("https", "api.github.com", lookup);
    REQUIRE(https.has_value());
    CHECK(https->host == "proxy.internal");
    CHECK(https->port == 3128);
    CHECK(https->username == "user");
    CHECK(https->password == "pw");
    CHECK(proxy_for("http", "gitlab.com", lookup)->port == 8080);
    CHECK_FALSE(proxy_for("https", "internal.example", lookup));
    CHECK_FALSE(proxy_for("https", "git.corp.example", lookup));
    CHECK_FALSE(proxy_for("https", "127.0.0.1", lookup));
    CHECK_FALSE(proxy_for("https", "localhost", lookup));
    CHECK_FALSE(proxy_for("https", "api.github.com",
                          [](const char*) { return std::optional<std::string>(); }));

    // End to end: a plain-HTTP call through the proxy asks it for the absolute URL.
    LocalRequest seen;
    LocalHttpServer proxy([&](const LocalRequest& request) {
        seen = request;
        return LocalReply{200, {}, "via proxy"};
    });
    ::setenv("http_proxy", proxy.url().c_str(), 1);
    const HttpClient http;
    const auto reply = http.send({"GET", "http://upstream.invalid/path?q=1"});
    ::unsetenv("http_proxy");
    CHECK(reply.body == "via proxy");
    CHECK(seen.target.starts_with("http://upstream.invalid"));  // Poco adds the port
    CHECK(seen.target.ends_with("/path?q=1"));
}

}  // namespace
TEST_CASE("an address policy: refused hosts are never contacted; allowed ones are, by name") {
    int requests = 0;
    LocalRequest seen;
    LocalHttpServer server([&](const LocalRequest& request) {
        ++requests;
        seen = request;
        return LocalReply{200, {}, "ok"};
    });
    const std::string port = server.url().substr(server.url().rfind(':') + 1);
    const HttpClient http;
    const AddressPolicy public_only;
    auto options = quick({.max_attempts = 3});
    options.address_policy = &public_only;
    for (const std::string host : {"127.0.0.1", "localhost", "[::1]"}) {
        CAPTURE(host);
        const auto sent = http.attempts_sent();
        try {
            std::string url = "http://";
            url.append(host).append(":").append(port).append("/hook");
            (void)http.send({"GET", url}, options);
            FAIL("the call was made");
        } catch (const HttpAddressRefused& error) {
            CHECK(std::string(error.what()).find("loopback address") != std::string::npos);
        }
        CHECK(http.attempts_sent() == sent);  // refused before connecting, and not retried
    }
    CHECK(requests == 0);

    // An operator who allows loopback: the call connects to the checked address and still
    // names the host.
    const AddressPolicy loopback_allowed({"127.0.0.0/8", "::1"});
    options.address_policy = &loopback_allowed;
    const auto reply = http.send({"POST", "http://localhost:" + port + "/hook", {}, "x"}, options);
    CHECK(reply.status == 200);
    CHECK(requests == 1);
    CHECK(seen.headers.at("host") == "localhost:" + port);
}

TEST_CASE("an address policy over HTTPS: connects to the checked address, verifies the name") {
    // A certificate for the name localhost only (no IP address in it): verifying it against
    // the address the call connects to would fail.
    const test::TempDir dir;
    const auto run = [](const std::string& command) {
        REQUIRE(std::system((command + " >/dev/null 2>&1").c_str()) == 0);
    };
    const std::string& d = dir.path();
    run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=Policy Test CA' -keyout " +
        d + "/ca.key -out " + d + "/ca.pem");
    run("openssl req -newkey rsa:2048 -nodes -subj '/CN=localhost' -keyout " + d +
        "/server.key -out " + d + "/server.csr");
    run("printf 'subjectAltName=DNS:localhost\\nbasicConstraints=CA:FALSE\\n' > " + d + "/ext.cnf");
    run("openssl x509 -req -days 2 -in " + d + "/server.csr -CA " + d + "/ca.pem -CAkey " + d +
        "/ca.key -CAcreateserial -extfile " + d + "/ext.cnf -out " + d + "/server.pem");
    test::StandinOptions standin_options;
    standin_options.tls_certificate_file = d + "/server.pem";
    standin_options.tls_key_file = d + "/server.key";
    const test::ProviderStandin standin(standin_options);
    const HttpClient http({.ca_file = d + "/ca.pem"});
    const AddressPolicy loopback_allowed({"127.0.0.0/8", "::1"});
    auto options = quick();
    options.address_policy = &loopback_allowed;
    CHECK(http.send({"GET", standin.base_url() + "/_standin/counts"}, options).status == 200);

    const AddressPolicy public_only;
    options.address_policy = &public_only;
    CHECK_THROWS_AS((void)http.send({"GET", standin.base_url() + "/_standin/counts"}, options),
                    HttpAddressRefused);
}

}  // namespace loupe
