// The request pipeline over real HTTP: an HttpServer on an ephemeral port with test routes.

#include "http/server.hpp"

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "unit/core/http/capturing_logger.hpp"
#include "unit/core/http/http_test_client.hpp"
#include "unit/core/http/null_database.hpp"

namespace loupe {
namespace {

constexpr std::size_t json_limit = 1024;

RegisteredRoute simple(Method method, std::string pattern, AuthRequirement auth, Handler handler,
                       BodyMode body = BodyMode::json) {
    Route route;
    route.method = method;
    route.pattern = std::move(pattern);
    route.auth = auth;
    route.prepare = [handler = std::move(handler)](Request&) { return handler; };
    route.options.body = body;
    return {std::move(route), "alpha"};
}

Json echo(Request& request) {
    const auto q = request.query("q");
    return {{"name", request.param("name")},
            {"path", request.path()},
            {"q", q ? Json(*q) : Json(nullptr)},
            {"q_count", request.query_count("q")},
            {"custom", request.header("x-CUSTOM").value_or("")},
            {"remote", request.remote_address()},
            {"anonymous", !request.principal().is_project() && !request.principal().is_user()}};
}

std::vector<RegisteredRoute> test_routes(const std::string& file_path) {
    std::vector<RegisteredRoute> routes;
    routes.push_back(simple(Method::get, "/echo/{name}", AuthRequirement::none,
                            [](Request& r) { return Response::json(echo(r)); }));
    routes.push_back(simple(Method::post, "/echo", AuthRequirement::none, [](Request& r) {
        return Response::json({{"received", r.json()}}, 201);
    }));
    routes.push_back(
        simple(Method::get, "/fail/details", AuthRequirement::none, [](Request&) -> Response {
            throw HttpError(422, "Nope", {"a is b", "c is d"});
        }));
    routes.push_back(simple(Method::get, "/fail/plain", AuthRequirement::none,
                            [](Request&) -> Response { throw HttpError::conflict("Taken"); }));
    routes.push_back(
        simple(Method::get, "/fail/internal", AuthRequirement::none,
               [](Request&) -> Response { throw std::runtime_error("db password is hunter2"); }));
    routes.push_back(simple(Method::get, "/fail/status", AuthRequirement::none, [](Request&) {
        Response response;
        response.status = 1234;
        return response;
    }));
    routes.push_back(simple(Method::get, "/file", AuthRequirement::none, [file_path](Request&) {
        return Response::file(file_path, "image/png");
    }));
    routes.push_back(simple(Method::get, "/missing-file", AuthRequirement::none, [](Request&) {
        return Response::file("/nonexistent/loupe-test-file", "image/png");
    }));
    routes.push_back(simple(
        Method::put, "/upload/{key}", AuthRequirement::none,
        [](Request& r) {
            std::size_t total = 0;
            char buffer[1000];
            while (const std::size_t count = r.read(buffer, sizeof buffer)) {
                total += count;
            }
            const auto length = r.content_length();
            return Response::json({{"key", r.param("key")},
                                   {"bytes", total},
                                   {"content_length", length ? Json(*length) : Json(nullptr)}});
        },
        BodyMode::stream));
    routes.push_back(simple(
        Method::put, "/upload-whole", AuthRequirement::none,
        [](Request& r) {
            return Response::json({{"bytes", r.body().size()}});
        },
        BodyMode::stream));
    routes.push_back(simple(
        Method::put, "/upload-refused", AuthRequirement::none,
        [](Request&) -> Response { throw HttpError::forbidden(); }, BodyMode::stream));

    // Reference §1.1: validation (prepare) fails before authentication is attempted.
    Route guarded;
    guarded.method = Method::post;
    guarded.pattern = "/guarded";
    guarded.auth = AuthRequirement::project_token;
    guarded.prepare = [](Request&) -> Handler {
        throw HttpError::invalid({"commit is Invalid input: expected string, received undefined"});
    };
    routes.push_back({std::move(guarded), "beta"});
    routes.push_back(simple(Method::post, "/guarded/ok", AuthRequirement::project_token,
                            [](Request&) { return Response::no_content(); }));
    return routes;
}

struct TestServer {
    explicit TestServer(ServerOptions options = {}) {
        std::ofstream(file_path, std::ios::binary) << file_content;
        routes = test_routes(file_path);
        router = std::make_unique<Router>(routes);
        options.listen_address = "127.0.0.1";
        options.port = 0;
        options.threads = 4;
        options.max_json_bytes = json_limit;
        server = std::make_unique<HttpServer>(options, *router, authenticator, log);
        port = server->start();
    }
    ~TestServer() {
        server.reset();
        std::filesystem::remove(file_path);
    }

    static std::string unique_file_path() {
        static std::atomic<int> counter{0};
        const std::string name = "loupe-http-test-" + std::to_string(::getpid()) + "-" +
                                 std::to_string(counter++) + ".bin";
        return (std::filesystem::temp_directory_path() / name).string();
    }

    const std::string file_path = unique_file_path();
    const std::string file_content = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(70000, 'p');
    std::vector<RegisteredRoute> routes;
    std::unique_ptr<Router> router;
    http_test::NullDatabase database;
    std::map<std::string, TokenResolver> resolvers;
    Authenticator authenticator{database, resolvers};
    http_test::CapturingLogger log;
    std::unique_ptr<HttpServer> server;
    int port = 0;
};

/// Sends raw bytes and returns whatever the server answers before closing or going quiet.
std::string raw_exchange(int port, const std::string& bytes) {
    Poco::Net::StreamSocket socket(
        Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(port)));
    socket.setReceiveTimeout(Poco::Timespan(2, 0));
    try {
        socket.sendBytes(bytes.data(), static_cast<int>(bytes.size()));
        socket.shutdownSend();
    } catch (const Poco::Exception&) {  // the server may answer and close before reading it all
    }
    std::string answer;
    char buffer[4096];
    try {
        while (const int count = socket.receiveBytes(buffer, sizeof buffer)) {
            if (count < 0) {
                break;
            }
            answer.append(buffer, static_cast<std::size_t>(count));
        }
    } catch (const Poco::Exception&) {  // timeout or reset: return what arrived
    }
    return answer;
}

}  // namespace

TEST_CASE("server: binds an ephemeral port and refuses one already in use") {
    TestServer first;
    CHECK(first.port > 0);
    CHECK(first.server->bound_port() == first.port);

    ServerOptions options;
    options.listen_address = "127.0.0.1";
    options.port = first.port;
    HttpServer second(options, *first.router, first.authenticator, first.log);
    try {
        second.start();
        FAIL("a second server started on a port in use");
    } catch (const std::runtime_error& error) {
        CHECK(std::string(error.what()).find(std::to_string(first.port)) != std::string::npos);
    }
    first.server->stop();
    CHECK(first.server->bound_port() == 0);
}

TEST_CASE("server: unknown paths get a JSON 404, wrong methods a JSON 405 with Allow") {
    TestServer server;
    http_test::Client client(server.port);

    const http_test::Reply missing = client.get("/nothing/here");
    CHECK(missing.status == 404);
    CHECK(missing.json() == Json{{"error", "Not Found"}});
    CHECK(missing.header("Content-Type").value_or("").starts_with("application/json"));

    const http_test::Reply wrong = client.send({"DELETE", "/echo/x", {}, {}, false});
    CHECK(wrong.status == 405);
    CHECK(wrong.json() == Json{{"error", "Method Not Allowed"}});
    CHECK(wrong.header("Allow") == "GET, HEAD");

    const http_test::Reply options = client.send({"OPTIONS", "/echo/x", {}, {}, false});
    CHECK(options.status == 204);
    CHECK(options.header("Allow") == "GET, HEAD");
}

TEST_CASE("server: the API answers the same at / and at /v2/") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply plain = client.get("/echo/abc?q=1");
    const http_test::Reply prefixed = client.get("/v2/echo/abc?q=1");
    REQUIRE(plain.status == 200);
    REQUIRE(prefixed.status == 200);
    Json a = plain.json();
    Json b = prefixed.json();
    CHECK(a == b);
    CHECK(b["path"] == "/echo/abc");
    CHECK(client.get("/v2x/echo/abc").status == 404);
    CHECK(client.get("/v2/v2/echo/abc").status == 404);
}

TEST_CASE("server: captures, query and headers reach the handler decoded") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply result =
        client.send({"GET", "/echo/a%20b%2Fc/?q=x+y%21&q=2", {}, {{"X-Custom", "hello"}}, false});
    REQUIRE(result.status == 200);
    const Json body = result.json();
    CHECK(body["name"] == "a b/c");
    CHECK(body["q"] == "x y!");
    CHECK(body["q_count"] == 2);
    CHECK(body["custom"] == "hello");
    CHECK(body["remote"] == "127.0.0.1");
    CHECK(body["anonymous"] == true);
}

TEST_CASE("server: JSON bodies are parsed, malformed JSON is a 400 with the parser's message") {
    TestServer server;
    http_test::Client client(server.port);

    const http_test::Reply ok = client.post("/echo", R"({"a":[1,2]})");
    CHECK(ok.status == 201);
    CHECK(ok.json() == Json{{"received", {{"a", {1, 2}}}}});

    const http_test::Reply empty = client.post("/echo", "");
    CHECK(empty.status == 201);
    CHECK(empty.json() == Json{{"received", nullptr}});

    const http_test::Reply malformed = client.post("/echo", R"({"a":})");
    CHECK(malformed.status == 400);
    CHECK(malformed.json() == Json{{"error", "Unexpected token } in JSON at position 5"}});
}

TEST_CASE("server: a body over the JSON limit is a 413 and ends the connection") {
    TestServer server;
    http_test::Client client(server.port);

    // Exactly at the limit is fine.
    const std::string at_limit = "[\"" + std::string(json_limit - 4, 'x') + "\"]";
    REQUIRE(at_limit.size() == json_limit);
    CHECK(client.post("/echo", at_limit).status == 201);

    const std::string over = "[\"" + std::string(json_limit, 'x') + "\"]";
    const http_test::Reply declared = client.post("/echo", over);
    CHECK(declared.status == 413);
    CHECK(declared.json() == Json{{"error", "request entity too large"}});
    CHECK(declared.header("Connection") == "close");

    // A chunked body has no Content-Length to check: it is cut off while being read.
    const http_test::Reply chunked = client.send({"POST",
                                                  "/echo",
                                                  std::string(200 * 1024, ' '),
                                                  {{"Content-Type", "application/json"}},
                                                  true});
    CHECK(chunked.status == 413);
    CHECK(chunked.header("Connection") == "close");

    // Request::body() on a streamed route has the same bound.
    const http_test::Reply whole = client.send({"PUT", "/upload-whole", over, {}, false});
    CHECK(whole.status == 413);

    // The client reconnects and the server is still fine.
    CHECK(client.get("/echo/after").status == 200);
}

TEST_CASE("server: HttpError becomes the Argos error body, details only when present") {
    TestServer server;
    http_test::Client client(server.port);

    const http_test::Reply details = client.get("/fail/details");
    CHECK(details.status == 422);
    CHECK(details.json() == Json::parse(R"({"error":"Nope",
        "details":[{"message":"a is b"},{"message":"c is d"}]})"));

    const http_test::Reply plain = client.get("/fail/plain");
    CHECK(plain.status == 409);
    CHECK(plain.json() == Json{{"error", "Taken"}});
}

TEST_CASE("server: other exceptions are a 500 that hides internals and logs them") {
    TestServer server;
    http_test::Client client(server.port);

    const http_test::Reply result = client.get("/fail/internal");
    CHECK(result.status == 500);
    CHECK(result.json() == Json{{"error", "Internal server error"}});
    CHECK(result.body.find("hunter2") == std::string::npos);

    const std::string request_id = result.header("X-Request-Id").value_or("missing");
    const auto errors = server.log.lines("http.internal_error");
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].level == LogLevel::error);
    CHECK(errors[0].fields.find("request_id=" + request_id) != std::string::npos);
    CHECK(errors[0].fields.find("route=/fail/internal") != std::string::npos);
    CHECK(errors[0].fields.find("route_plugin=alpha") != std::string::npos);
    CHECK(errors[0].fields.find("hunter2") != std::string::npos);

    // A handler's impossible status and a vanished file are internal errors too.
    CHECK(client.get("/fail/status").status == 500);
    const http_test::Reply missing = client.get("/missing-file");
    CHECK(missing.status == 500);
    CHECK(missing.json() == Json{{"error", "Internal server error"}});
    CHECK(server.log.lines("http.internal_error").size() == 3);
}

TEST_CASE("server: validation in prepare answers 400 before authentication") {
    TestServer server;
    http_test::Client client(server.port);
    // The route needs a project token and none is sent: the 400 still wins.
    const http_test::Reply result = client.post("/guarded", "{}");
    CHECK(result.status == 400);
    CHECK(result.json() == Json::parse(R"({"error":"Invalid request","details":[
        {"message":"commit is Invalid input: expected string, received undefined"}]})"));
}

TEST_CASE("server: a 401 carries WWW-Authenticate with resource metadata") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply result = client.post("/guarded/ok", "{}");
    CHECK(result.status == 401);
    CHECK(result.json() == Json{{"error", "Authorization header is missing"}});
    const std::string challenge = result.header("WWW-Authenticate").value_or("");
    CHECK(challenge.starts_with("Bearer resource_metadata=\"http://127.0.0.1:" +
                                std::to_string(server.port)));
    CHECK(challenge.ends_with("/.well-known/oauth-protected-resource\""));

    ServerOptions options;
    options.public_url = "https://loupe.example.com/";
    TestServer configured(options);
    http_test::Client other(configured.port);
    CHECK(other.post("/guarded/ok", "{}").header("WWW-Authenticate") ==
          "Bearer resource_metadata=\"https://loupe.example.com/.well-known/"
          "oauth-protected-resource\"");
}

TEST_CASE("server: streamed uploads read fixed-length and chunked bodies") {
    TestServer server;
    http_test::Client client(server.port);
    const std::string data(300 * 1024, 'd');

    const http_test::Reply fixed = client.send({"PUT", "/upload/k1", data, {}, false});
    REQUIRE(fixed.status == 200);
    CHECK(fixed.json() ==
          Json{{"key", "k1"}, {"bytes", data.size()}, {"content_length", data.size()}});

    const http_test::Reply chunked = client.send({"PUT", "/upload/k2", data, {}, true});
    REQUIRE(chunked.status == 200);
    CHECK(chunked.json() ==
          Json{{"key", "k2"}, {"bytes", data.size()}, {"content_length", nullptr}});
}

TEST_CASE("server: an unread body is dropped when small, else the connection is closed") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply small = client.send({"PUT", "/upload-refused", "tiny", {}, false});
    CHECK(small.status == 403);
    CHECK(small.header("Connection") == "keep-alive");

    // Large enough to be read and dropped, so this client (which writes it all before
    // reading) still gets its answer.
    const http_test::Reply medium =
        client.send({"PUT", "/upload-refused", std::string(512 * 1024, 'M'), {}, false});
    CHECK(medium.status == 403);
    CHECK(medium.header("Connection") == "keep-alive");
    CHECK(client.get("/echo/again").status == 200);

    // Declared far too large to read through: answered at once, then closed.
    const std::string answer = raw_exchange(
        server.port,
        "PUT /upload-refused HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n");
    CHECK(answer.starts_with("HTTP/1.1 403 "));
    CHECK(answer.find("Connection: close\r\n") != std::string::npos);

    // A client waiting for "100 Continue" is not asked for a body nobody will read.
    const std::string waiting =
        raw_exchange(server.port,
                     "PUT /upload-refused HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nExpect: "
                     "100-continue\r\n\r\n");
    CHECK(waiting.starts_with("HTTP/1.1 403 "));
    CHECK(waiting.find("100 Continue") == std::string::npos);
    CHECK(waiting.find("Connection: close\r\n") != std::string::npos);
}

TEST_CASE("server: a body is asked for with 100 Continue when the client expects it") {
    TestServer server;
    const std::string answer = raw_exchange(
        server.port,
        "PUT /upload/e HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n"
        "Connection: close\r\n\r\nabc");
    CHECK(answer.starts_with("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 "));
    CHECK(answer.find(R"("bytes":3)") != std::string::npos);
}

TEST_CASE("server: files are streamed with their length, HEAD sends the headers only") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply file = client.get("/file");
    REQUIRE(file.status == 200);
    CHECK(file.body == server.file_content);
    CHECK(file.header("Content-Type") == "image/png");
    CHECK(file.header("Content-Length") == std::to_string(server.file_content.size()));

    const http_test::Reply head = client.send({"HEAD", "/v2/file", {}, {}, false});
    CHECK(head.status == 200);
    CHECK(head.header("Content-Length") == std::to_string(server.file_content.size()));
    CHECK(head.body.empty());

    const http_test::Reply head_json = client.send({"HEAD", "/echo/x", {}, {}, false});
    CHECK(head_json.status == 200);
    CHECK(head_json.header("Content-Length") != "0");
    // The connection is still usable after a body-less answer.
    CHECK(client.get("/echo/y").json()["name"] == "y");
}

TEST_CASE("server: one access log line per request, with our id and the client's") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply result =
        client.send({"GET", "/v2/echo/logged", {}, {{"x-argos-request-id", "client-7"}}, false});
    REQUIRE(result.status == 200);
    const std::string request_id = result.header("X-Request-Id").value_or("");
    CHECK(request_id.size() == 16);
    CHECK(request_id != "client-7");
    client.get("/nothing");

    // The line is written after the response went out, so the client can be faster than it.
    auto lines = server.log.lines("http.request");
    for (int i = 0; i < 200 && lines.size() < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        lines = server.log.lines("http.request");
    }
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].level == LogLevel::info);
    const std::string& fields = lines[0].fields;
    CHECK(fields.find("method=GET") != std::string::npos);
    CHECK(fields.find("path=/v2/echo/logged") != std::string::npos);
    CHECK(fields.find("status=200") != std::string::npos);
    CHECK(fields.find("duration_ms=") != std::string::npos);
    CHECK(fields.find("request_id=" + request_id) != std::string::npos);
    CHECK(fields.find("route_plugin=alpha") != std::string::npos);
    CHECK(fields.find("client_request_id=client-7") != std::string::npos);
    CHECK(lines[1].fields.find("status=404") != std::string::npos);
    CHECK(lines[1].fields.find("route_plugin=-") != std::string::npos);
}

TEST_CASE("server: malformed requests do not bring it down") {
    TestServer server;
    const std::vector<std::string> attacks = {
        "GARBAGE\r\n\r\n",
        "GET /echo/%zz%00%ff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "BREW /echo/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"a\"",
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "GET " + std::string(100000, 'a') + " HTTP/1.1\r\n\r\n",
        "GET /echo/x HTTP/1.1\r\nHost: x\r\nX: " + std::string(100000, 'h') + "\r\n\r\n",
        "GET /v2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET http://x/echo/abs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    };
    for (const std::string& attack : attacks) {
        CAPTURE(attack.substr(0, 60));
        const std::string answer = raw_exchange(server.port, attack);
        if (!answer.empty()) {
            CHECK(answer.starts_with("HTTP/1."));
        }
    }
    const std::string truncated = raw_exchange(
        server.port,
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"a\"");
    CHECK(truncated.find(" 400 ") != std::string::npos);
    CHECK(truncated.find(R"({"error":"request aborted"})") != std::string::npos);
    const std::string bad_chunks = raw_exchange(
        server.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    CHECK(bad_chunks.starts_with("HTTP/1.1 400 "));
    CHECK(bad_chunks.find("Connection: close\r\n") != std::string::npos);

    http_test::Client client(server.port);
    CHECK(client.get("/echo/still-up").status == 200);
}

}  // namespace loupe
