#include "support/local_http_server.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>

#include <thread>

#include "loupe/text/strings.hpp"

namespace loupe::test {
namespace {

class Handler : public Poco::Net::HTTPRequestHandler {
public:
    explicit Handler(LocalHttpServer& server) : server_(server) {}
    void handleRequest(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response) override {
        LocalRequest seen;
        seen.method = request.getMethod();
        seen.target = request.getURI();
        for (const auto& [name, value] : request) {
            seen.headers[to_lower(name)] = value;
        }
        Poco::StreamCopier::copyToString(request.stream(), seen.body);
        const LocalReply reply = server_.answer(seen);
        response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
        for (const auto& [name, value] : reply.headers) {
            response.set(name, value);
        }
        response.setContentLength(static_cast<std::streamsize>(reply.body.size()));
        std::ostream& out = response.send();
        if (reply.delay_before_body.count() > 0) {
            out.flush();
            std::this_thread::sleep_for(reply.delay_before_body);
        }
        out << reply.body;
    }

private:
    LocalHttpServer& server_;
};

class Factory : public Poco::Net::HTTPRequestHandlerFactory {
public:
    explicit Factory(LocalHttpServer& server) : server_(server) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(
        const Poco::Net::HTTPServerRequest&) override {
        return new Handler(server_);
    }

private:
    LocalHttpServer& server_;
};

}  // namespace

LocalHttpServer::LocalHttpServer(std::function<LocalReply(const LocalRequest&)> handler)
    : handler_(std::move(handler)) {
    auto* params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(16);
    Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
    port_ = socket.address().port();
    server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(*this), threads_, socket, params);
    server_->start();
}

LocalHttpServer::~LocalHttpServer() {
    server_->stopAll(true);
    // Handlers still sleeping use this object until they return.
    while (handling_.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string LocalHttpServer::url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}

LocalReply LocalHttpServer::answer(const LocalRequest& request) {
    ++handling_;
    ++requests_;
    LocalReply reply = handler_(request);
    --handling_;
    return reply;
}

}  // namespace loupe::test
