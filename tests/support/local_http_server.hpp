#pragma once
// A plain HTTP server on 127.0.0.1 for tests of outgoing HTTP: each request is answered by a
// function the test gives (it may sleep to play a slow server, or answer differently each time).

#include <Poco/ThreadPool.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace Poco::Net {
class HTTPServer;
}

namespace loupe::test {

struct LocalRequest {
    std::string method;
    std::string target;                          ///< path and query as sent
    std::map<std::string, std::string> headers;  ///< names in lower case
    std::string body;
};

struct LocalReply {
    int status = 200;
    std::map<std::string, std::string> headers;
    std::string body;
    /// Sent before the body; then the body after this pause (a server that stalls mid-answer).
    std::chrono::milliseconds delay_before_body{0};
};

class LocalHttpServer {
public:
    explicit LocalHttpServer(std::function<LocalReply(const LocalRequest&)> handler);
    ~LocalHttpServer();
    LocalHttpServer(const LocalHttpServer&) = delete;
    LocalHttpServer& operator=(const LocalHttpServer&) = delete;

    /// http://127.0.0.1:PORT
    std::string url() const;
    int requests() const { return requests_.load(); }

    /// Called by the server's threads.
    LocalReply answer(const LocalRequest& request);

private:
    std::function<LocalReply(const LocalRequest&)> handler_;
    /// The server's own threads, ended (and their OpenSSL thread state freed) with it: Poco's
    /// default pool keeps its threads until the process ends, where the leak checker cannot see
    /// what they hold.
    Poco::ThreadPool threads_{1, 16};
    std::unique_ptr<Poco::Net::HTTPServer> server_;
    int port_ = 0;
    std::atomic<int> requests_{0};
    std::atomic<int> handling_{0};
};

}  // namespace loupe::test
