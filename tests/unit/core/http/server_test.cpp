// The request pipeline over real HTTP: an HttpServer on an ephemeral port with test routes.

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "unit/core/http/http_test_client.hpp"
#include "unit/core/http/raw_connection.hpp"
#include "unit/core/http/test_server.hpp"

namespace loupe {
using http_test::json_limit;
using http_test::raw_exchange;
using http_test::TestServer;

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

TEST_CASE("server: a caller without a valid token is refused before its body is validated") {
    TestServer server;
    http_test::Client client(server.port);
    // The route needs a project token and none is sent: 401, its validation never runs.
    const http_test::Reply result = client.post("/guarded", "{}");
    CHECK(result.status == 401);
    CHECK(result.json() == Json{{"error", "Authorization header is missing"}});
    const http_test::Reply malformed = client.post("/guarded", "{not json");
    CHECK(malformed.status == 401);
}

TEST_CASE("server: an anonymous body is refused before it is read") {
    TestServer server;
    // 32 MiB announced, a few bytes sent: the 401 comes at once, without waiting for the rest
    // (before, the server read and parsed the whole body first).
    http_test::RawConnection connection(server.port);
    REQUIRE(
        connection.send("POST /guarded/ok HTTP/1.1\r\nHost: x\r\nContent-Type: "
                        "application/json\r\nContent-Length: 33554432\r\n\r\n[0,0,0,0"));
    const auto started = std::chrono::steady_clock::now();
    const std::string answer = connection.read_until_closed(std::chrono::milliseconds(2000));
    CHECK(answer.starts_with("HTTP/1.1 401"));
    CHECK(answer.find("Authorization header is missing") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

TEST_CASE("server: a JSON body of more values than http.max_json_values is a 413") {
    ServerOptions options;
    options.max_json_values = 100;
    TestServer server(options);
    std::string many = "[0";
    for (int i = 0; i < 150; ++i) {
        many += ",0";
    }
    many += "]";
    const http_test::Reply refused = http_test::Client(server.port).post("/echo", many);
    CHECK(refused.status == 413);
    CHECK(refused.json()["error"] == "JSON body holds more than 100 values (http.max_json_values)");
    // The root, one member, 49 arrays of one number each: 100 values, the limit itself.
    std::string nested = "{\"a\": [";
    for (int i = 0; i < 49; ++i) {
        nested += std::string(i > 0 ? ", " : "") + "[1]";
    }
    nested += "]}";
    const http_test::Reply within = http_test::Client(server.port).post("/echo", nested);
    CHECK(within.status == 201);
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
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
        "100\r\nConnection: close\r\n\r\n{\"a\"");
    CHECK(truncated.find(" 400 ") != std::string::npos);
    CHECK(truncated.find(R"({"error":"request aborted"})") != std::string::npos);
    const std::string bad_chunks = raw_exchange(
        server.port,
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: "
        "chunked\r\n\r\nzz\r\n");
    CHECK(bad_chunks.starts_with("HTTP/1.1 400 "));
    CHECK(bad_chunks.find("Connection: close\r\n") != std::string::npos);

    http_test::Client client(server.port);
    CHECK(client.get("/echo/still-up").status == 200);
}

}  // namespace loupe
