// Request framing at the edges: ambiguous bodies (request smuggling, RFC 9112 §6.1), the
// errors civetweb answers itself, and what a JSON route accepts as a body.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "unit/core/http/http_test_client.hpp"
#include "unit/core/http/test_server.hpp"

namespace loupe {
namespace {

using http_test::raw_exchange;
using http_test::TestServer;

std::size_t count_of(const std::string& text, const std::string& needle) {
    std::size_t count = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + 1)) {
        ++count;
    }
    return count;
}

/// The JSON body of the first response in `answer`.
Json first_body(const std::string& answer) {
    const std::size_t start = answer.find("\r\n\r\n");
    REQUIRE(start != std::string::npos);
    const std::size_t end = answer.find("HTTP/1.", start);
    return Json::parse(answer.substr(start + 4, end == std::string::npos ? end : end - start - 4));
}

std::string smuggled_get() {
    return "GET /echo/smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
}

/// Each request is refused with one 400 that closes the connection: nothing it carried runs.
void check_refused_and_closed(int port, const std::vector<std::string>& requests) {
    for (const std::string& request : requests) {
        CAPTURE(request);
        const std::string answer = raw_exchange(port, request);
        CHECK(answer.starts_with("HTTP/1.1 400 "));
        CHECK(answer.find("Connection: close\r\n") != std::string::npos);
        CHECK(count_of(answer, "HTTP/1.1 ") == 1);
        CHECK(answer.find("smuggled") == std::string::npos);
    }
}

}  // namespace

TEST_CASE("framing: Content-Length with Transfer-Encoding is refused and the connection closed") {
    TestServer server;
    // Read as chunked, the body ends at "0\r\n\r\n" and the rest would run as a second request.
    const std::string body = "0\r\n\r\n" + smuggled_get();
    const std::vector<std::string> attacks = {
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\nTransfer-Encoding: chunked\r\n\r\n" + body,
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body,
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\nTransfer-Encoding:  chunked \r\n\r\n" + body,
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\nTransfer-Encoding: xchunked\r\n\r\n" + body,
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\nTransfer-Encoding: chunked, identity\r\n\r\n" + body,
    };
    check_refused_and_closed(server.port, attacks);
    CHECK(first_body(raw_exchange(server.port, attacks[0])) ==
          Json{{"error",
                "Content-Length and Transfer-Encoding together make the body length "
                "ambiguous"}});
    http_test::Client client(server.port);
    CHECK(client.get("/echo/after").status == 200);
}

TEST_CASE("framing: two Transfer-Encoding headers, or one on HTTP/1.0, are refused") {
    TestServer server;
    const std::string chunks = "2\r\n{}\r\n0\r\n\r\n";
    const std::vector<std::string> attacks = {
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n" +
            chunks + smuggled_get(),
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n\r\n" +
            chunks + smuggled_get(),
        "POST /echo HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Connection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n" +
            chunks + smuggled_get(),
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: identity\r\n\r\n" +
            chunks + smuggled_get(),
    };
    check_refused_and_closed(server.port, attacks);
    // A plain chunked request on HTTP/1.1 is fine.
    const std::string good =
        raw_exchange(server.port,
                     "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" +
                         chunks);
    CHECK(good.starts_with("HTTP/1.1 201 "));
}

TEST_CASE("framing: Content-Length must be one plain decimal number") {
    TestServer server;
    const std::vector<std::string> lengths = {"2abc", "+2", "0x2", "2, 2",
                                              "99999999999999999999999"};
    for (const std::string& length : lengths) {
        CAPTURE(length);
        const std::string answer =
            raw_exchange(server.port,
                         "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         "Content-Length: " +
                             length + "\r\n\r\n{}" + smuggled_get());
        CHECK(answer.starts_with("HTTP/1.1 400 "));
        CHECK(answer.find("Connection: close\r\n") != std::string::npos);
        CHECK(answer.find("smuggled") == std::string::npos);
    }
    const std::string twice = raw_exchange(
        server.port,
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
        "Content-Length: 40\r\n\r\n{}" +
            smuggled_get());
    CHECK(twice.starts_with("HTTP/1.1 400 "));
    CHECK(count_of(twice, "HTTP/1.1 ") == 1);

    const std::string negative =
        raw_exchange(server.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n");
    CHECK(negative.starts_with("HTTP/1.1 400 "));
    CHECK(first_body(negative).contains("error"));
}

TEST_CASE("framing: more headers than the parser keeps is a 431, none is dropped silently") {
    TestServer server;
    std::string head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    for (int i = 0; i < 70; ++i) {
        head += "X-Filler-" + std::to_string(i) + ": 1\r\n";
    }
    const std::string answer =
        raw_exchange(server.port, head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" +
                                      smuggled_get());
    CHECK(answer.starts_with("HTTP/1.1 431 "));
    CHECK(count_of(answer, "HTTP/1.1 ") == 1);
}

TEST_CASE("framing: the errors civetweb answers itself have the Argos JSON shape") {
    TestServer server;
    struct Case {
        std::string request;
        int status;
    };
    const std::vector<Case> cases = {
        {"GET /echo/x HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(40000, 'h') + "\r\n\r\n", 431},
        {"GET /echo/" + std::string(12000, 'u') + " HTTP/1.1\r\nHost: x\r\n\r\n", 414},
        {"BREW /echo/x HTTP/1.1\r\nHost: x\r\n\r\n", 501},
        {"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", 400},
        {"GARBAGE\r\n\r\n", 400},
        {"GET /echo/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400},
        {"GET /echo/x HTTP/2.0\r\nHost: x\r\n\r\n", 505},
    };
    for (const Case& c : cases) {
        CAPTURE(c.request.substr(0, 60));
        const std::string answer = raw_exchange(server.port, c.request);
        REQUIRE(answer.starts_with("HTTP/1.1 " + std::to_string(c.status) + " "));
        CHECK(answer.find("Content-Type: application/json") != std::string::npos);
        CHECK(answer.find("Connection: close\r\n") != std::string::npos);
        const Json body = first_body(answer);
        CHECK(body.size() == 1);
        CHECK(body["error"].is_string());
    }
    // An absolute-form target naming this server is served like its path (RFC 9112 §3.2.2).
    const std::string absolute =
        raw_exchange(server.port, "GET http://127.0.0.1:" + std::to_string(server.port) +
                                      "/echo/abs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(absolute.starts_with("HTTP/1.1 200 "));
    CHECK(absolute.find(R"("name":"abs")") != std::string::npos);
}

TEST_CASE("framing: a JSON route refuses a body of another media type with 415") {
    TestServer server;
    http_test::Client client(server.port);
    const auto post = [&](std::vector<std::pair<std::string, std::string>> headers,
                          std::string body = "{}") {
        return client.send({"POST", "/echo", std::move(body), std::move(headers), false});
    };
    const http_test::Reply text = post({{"Content-Type", "text/plain"}});
    CHECK(text.status == 415);
    CHECK(text.json() == Json{{"error",
                               "Unsupported Media Type: send the body as "
                               "application/json"}});
    CHECK(post({{"Content-Type", "application/x-www-form-urlencoded"}}).status == 415);
    CHECK(post({{"Content-Type", "application/jsonp"}}).status == 415);
    CHECK(post({}).status == 415);

    CHECK(post({{"Content-Type", "application/json"}}).status == 201);
    CHECK(post({{"Content-Type", "Application/JSON; charset=utf-8"}}).status == 201);
    CHECK(post({{"Content-Type", "application/vnd.argos+json"}}).status == 201);
    // No body, no type needed.
    CHECK(post({}, "").status == 201);
}

TEST_CASE("framing: a JSON body must be one document, without NUL bytes or trailing garbage") {
    TestServer server;
    http_test::Client client(server.port);
    const http_test::Reply nul = client.post("/echo", std::string("{\"a\":1}\0garbage", 15));
    CHECK(nul.status == 400);
    CHECK(nul.json() == Json{{"error", "Unexpected token in JSON at position 7"}});
    CHECK(client.post("/echo", std::string("{\"a\":\"x\0y\"}", 11)).status == 400);
    CHECK(client.post("/echo", "{\"a\":1} {}").status == 400);
}

TEST_CASE("framing: numbers out of range are a 400, not a 500") {
    TestServer server;
    http_test::Client client(server.port);
    for (const std::string body :
         {R"({"x":1e400})", R"({"x":-1e400})", R"([1e309])", R"({"x":[0,1,123456789e999]})"}) {
        CAPTURE(body);
        const http_test::Reply reply = client.post("/echo", body);
        CHECK(reply.status == 400);
        CHECK(reply.json()["error"].get<std::string>().find("out of range") != std::string::npos);
    }
    CHECK(server.log.lines("http.internal_error").empty());
    // Underflow is an ordinary number: zero.
    const http_test::Reply tiny = client.post("/echo", R"({"x":1e-400})");
    CHECK(tiny.status == 201);
    CHECK(tiny.json()["received"]["x"] == 0.0);
}

}  // namespace loupe
