// A plugin's extra listener (Host::listeners()) on a real `loupe serve`, through the
// "listener" fixture plugin: its own route table and nothing else, no "/v2" prefix, its public
// URL lent to the plugin, its requests in GET /metrics under listener="echo", the slow-client
// guard, a drain at SIGTERM, and a route asking for a token refused at install.
#include <doctest/doctest.h>
#include <signal.h>

#include <thread>

#include "support/build_paths.hpp"
#include "support/http_client.hpp"
#include "support/process_exit.hpp"
#include "support/prometheus_text.hpp"
#include "support/server_process.hpp"
#include "unit/core/http/raw_connection.hpp"

using namespace loupe::test;
using loupe::http_test::RawConnection;
using Clock = std::chrono::steady_clock;

namespace {

const std::string metrics_token = "listener-metrics-5e1";

ServerOptions listener_options(std::map<std::string, std::string> settings = {}) {
    ServerOptions options;
    options.plugins = {"listener"};
    options.settings = std::move(settings);
    options.settings["plugins.path"] = LOUPE_TEST_FIXTURE_PLUGIN_DIR;
    options.settings["metrics.token"] = metrics_token;
    return options;
}

int port_of(const std::string& url) {
    return std::stoi(url.substr(url.rfind(':') + 1));
}

}  // namespace

TEST_CASE("listeners: a plugin's listener serves its own routes only, at their own paths") {
    ServerProcess server(listener_options());
    const std::string echo = server.listener_url("echo");
    CHECK(echo.starts_with("http://127.0.0.1:"));
    CHECK(port_of(echo) != server.port());

    auto result = http_get(echo + "/hello/world");
    CHECK(result.status == 200);
    CHECK(result.body == "hello world\n");
    // Every answer carries the listener's headers, the core's own errors too, unless the
    // handler set its own.
    CHECK(result.header("x-listener") == "echo");
    CHECK(http_get(echo + "/nothing-here").header("x-listener") == "echo");
    CHECK(http_get(echo + "/own-header").header("x-listener") == "own");
    CHECK(http_get(server.base_url() + "/healthz").header("x-listener").empty());
    // The API's routes, the "/v2" prefix and the core's own routes are not there...
    CHECK(http_get(echo + "/v2/hello/world").status == 404);
    CHECK(http_get(echo + "/fixture/listener").status == 404);
    CHECK(http_get(echo + "/healthz").status == 404);
    CHECK(http_get(echo + "/metrics", metrics_token).status == 404);
    // ...and the listener's routes are not on the API's listener.
    CHECK(http_get(server.base_url() + "/hello/world").status == 404);
    CHECK(http_get(server.base_url() + "/healthz").status == 200);

    // The plugin knows where its listener is reachable.
    const auto told = http_get(server.base_url() + "/fixture/listener").json();
    CHECK(told["name"] == "echo");
    CHECK(told["url"] == echo);

    // Its requests are counted apart from the API's.
    const auto scraped = http_get(server.base_url() + "/metrics", metrics_token);
    REQUIRE(scraped.status == 200);
    const PromText metrics = PromText::parse(scraped.body);
    CHECK(metrics.value("loupe_http_requests_total",
                        {{"listener", "echo"}, {"route", "/hello/{name}"}, {"status", "200"}}) ==
          1);
    CHECK(metrics.sum("loupe_http_requests_total",
                      {{"listener", "echo"}, {"route", "none"}, {"status", "404"}}) == 5);
    CHECK(metrics.sum("loupe_http_requests_total", {{"route", "/hello/{name}"}}) == 1);
    CHECK(metrics.value("loupe_http_requests_in_flight", {{"listener", "echo"}}) == 0);
}

TEST_CASE("listeners: the public URL a plugin's listener is given") {
    ServerProcess server(listener_options({{"plugins.listener.public_url", "https://echo.test/"}}));
    CHECK(server.listener_url("echo") == "https://echo.test");
    CHECK(http_get(server.base_url() + "/fixture/listener").json()["url"] == "https://echo.test");
}

TEST_CASE("listeners: the slow-client guard holds on a plugin's listener") {
    ServerProcess server(listener_options(
        {{"http.head_timeout_ms", "1000"}, {"http.max_connections_per_client", "2"}}));
    const int port = port_of(server.listener_url("echo"));

    // A head that never ends is answered 408 at the deadline.
    RawConnection trickle(port);
    const Clock::time_point start = Clock::now();
    trickle.send("GET /hello/x HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    while (!trickle.server_spoke() && Clock::now() - start < std::chrono::seconds(5)) {
        trickle.send("a");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const std::string answer = trickle.read_until_closed(std::chrono::milliseconds(2000));
    CHECK(std::chrono::duration<double>(Clock::now() - start).count() < 2.5);
    CHECK(answer.starts_with("HTTP/1.1 408 "));

    // One client's connections over its cap are refused.
    std::vector<std::unique_ptr<RawConnection>> held;
    for (int i = 0; i < 2; ++i) {
        held.push_back(std::make_unique<RawConnection>(port, "127.0.0.2"));
        held.back()->send("GET /hello/x HTTP/1.1\r\nHost: x\r\n");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    RawConnection over(port, "127.0.0.2");
    over.send("GET /hello/x HTTP/1.1\r\nHost: x\r\n");
    const std::string refused = over.read_until_closed(std::chrono::milliseconds(3000));
    CHECK(over.closed());
    if (!refused.empty()) {
        CHECK(refused.starts_with("HTTP/1.1 503 "));
    }
    CHECK(http_get(server.listener_url("echo") + "/hello/y").status == 200);
}

TEST_CASE("listeners: SIGTERM drains a plugin's listener with the API's") {
    ServerProcess server(listener_options({{"http.drain_timeout_ms", "20000"}}));
    const int port = port_of(server.listener_url("echo"));
    RawConnection slow(port);
    REQUIRE(slow.send("GET /slow?ms=1500 HTTP/1.1\r\nHost: x\r\n\r\n"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const int pid = served_pid(server.output());
    REQUIRE(::kill(pid, SIGTERM) == 0);
    // The request in progress completes, closing its connection; then the process exits.
    const std::string answer = slow.read_until_closed(std::chrono::seconds(10));
    CHECK(answer.starts_with("HTTP/1.1 200 "));
    CHECK(answer.find("Connection: close") != std::string::npos);
    CHECK(answer.ends_with("slept\n"));
    const auto exit_code = wait_for_exit(pid, std::chrono::seconds(10));
    REQUIRE(exit_code.has_value());
    CHECK(*exit_code == 0);
}

TEST_CASE("listeners: a listener route that asks for a token is refused at start") {
    std::string out;
    try {
        ServerProcess server(listener_options({{"plugins.listener.authenticated_route", "true"}}));
        FAIL("loupe serve started");
    } catch (const std::runtime_error& error) {
        out = error.what();
    }
    CHECK(out.find("listener 'echo' of plugin 'listener': route /mine asks for authentication; "
                   "a listener's routes take none") != std::string::npos);
}

TEST_CASE("listeners: a listener route not declared public is refused at start") {
    std::string out;
    try {
        ServerProcess server(listener_options({{"plugins.listener.guarded_route", "true"}}));
        FAIL("loupe serve started");
    } catch (const std::runtime_error& error) {
        out = error.what();
    }
    CHECK(out.find("listener 'echo' of plugin 'listener': route /guarded is not declared "
                   "public") != std::string::npos);
}
