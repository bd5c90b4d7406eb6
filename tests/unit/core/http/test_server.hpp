#pragma once
// An in-process HttpServer on an ephemeral port with test routes (echo, failures, files,
// streamed uploads), and a raw-socket exchange for requests no HTTP client would send.

#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "http/server.hpp"
#include "unit/core/http/capturing_logger.hpp"
#include "unit/core/http/null_database.hpp"

namespace loupe::http_test {

inline constexpr std::size_t json_limit = 1024;

inline RegisteredRoute simple(Method method, std::string pattern, AuthRequirement auth,
                              Handler handler, BodyMode body = BodyMode::json) {
    Route route;
    route.method = method;
    route.pattern = std::move(pattern);
    route.auth = auth;
    route.access = RouteAccess::public_route("a test route");
    route.prepare = [handler = std::move(handler)](Request&) { return handler; };
    route.options.body = body;
    return {std::move(route), "alpha"};
}

inline Json echo(Request& request) {
    const auto q = request.query("q");
    return {{"name", request.param("name")},
            {"path", request.path()},
            {"q", q ? Json(*q) : Json(nullptr)},
            {"q_count", request.query_count("q")},
            {"custom", request.header("x-CUSTOM").value_or("")},
            {"remote", request.remote_address()},
            {"anonymous", !request.principal().is_project() && !request.principal().is_user()}};
}

inline std::vector<RegisteredRoute> test_routes(const std::string& file_path) {
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

    // Validation (prepare) fails with 400 before authentication is attempted, as in Argos.
    Route guarded;
    guarded.method = Method::post;
    guarded.pattern = "/guarded";
    guarded.auth = AuthRequirement::project_token;
    guarded.access = RouteAccess::public_route("a test route");
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
        options.max_connections = 32;
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
    NullDatabase database;
    std::map<std::string, TokenResolver> resolvers;
    Authenticator authenticator{database, resolvers};
    CapturingLogger log;
    std::unique_ptr<HttpServer> server;
    int port = 0;
};

/// Sends raw bytes and returns whatever the server answers before closing or going quiet.
inline std::string raw_exchange(int port, const std::string& bytes) {
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

}  // namespace loupe::http_test
