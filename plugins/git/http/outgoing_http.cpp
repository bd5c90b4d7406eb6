#include "http/outgoing_http.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/URI.h>

#include <istream>
#include <mutex>

#include "loupe/version.hpp"

namespace loupe::git {
namespace {

Poco::Timespan remaining(Deadline deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
        throw TransportError("timed out");
    }
    return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(left));
}

void initialize_tls_once() {
    static std::once_flag once;
    std::call_once(once, [] { Poco::Net::initializeSSL(); });
}

}  // namespace

struct OutgoingHttp::ContextHolder {
    Poco::Net::Context::Ptr context;
};

OutgoingHttp::OutgoingHttp(const GitSettings& settings)
    : tls_(std::make_unique<ContextHolder>()),
      max_response_bytes_(settings.max_response_bytes),
      user_agent_(std::string("loupe/") + LOUPE_VERSION) {
    initialize_tls_once();
    Poco::Net::Context::Params params;
    params.verificationMode = Poco::Net::Context::VERIFY_STRICT;
    params.loadDefaultCAs = true;  // the system store (ca-certificates)
    params.caLocation = settings.ca_file;
    params.cipherList = "HIGH:!aNULL:!eNULL:!MD5:!RC4";
    try {
        tls_->context = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params);
        tls_->context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
    } catch (const Poco::Exception& error) {
        throw std::runtime_error("plugins.git.ca_file: " + error.displayText());
    }
}

OutgoingHttp::~OutgoingHttp() = default;

OutgoingReply OutgoingHttp::send(const OutgoingRequest& request, Deadline deadline) const {
    std::unique_ptr<Poco::Net::HTTPClientSession> session;
    std::string target;
    try {
        const Poco::URI uri(request.url);
        if (uri.getScheme() == "https") {
            session = std::make_unique<Poco::Net::HTTPSClientSession>(uri.getHost(), uri.getPort(),
                                                                      tls_->context);
        } else if (uri.getScheme() == "http") {
            session = std::make_unique<Poco::Net::HTTPClientSession>(uri.getHost(), uri.getPort());
        } else {
            throw TransportError("unsupported URL scheme in " + request.url);
        }
        // The path as written: Poco::URI decodes it, which would turn GitLab's encoded project
        // path ("group%2Fapp") back into two segments.
        const auto authority = request.url.find("://");
        const auto path = request.url.find('/', authority + 3);
        target = path == std::string::npos ? "/" : request.url.substr(path);
    } catch (const Poco::SyntaxException& error) {
        throw TransportError("invalid URL " + request.url + ": " + error.displayText());
    }
    session->setKeepAlive(false);

    Poco::Net::HTTPRequest outgoing(request.method, target, Poco::Net::HTTPMessage::HTTP_1_1);
    outgoing.set("User-Agent", user_agent_);
    for (const auto& [name, value] : request.headers) {
        outgoing.set(name, value);
    }
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
        request.method == "PATCH") {
        outgoing.setContentType("application/json");
        outgoing.setContentLength(static_cast<std::streamsize>(request.body.size()));
    }

    OutgoingReply reply;
    try {
        const auto left = remaining(deadline);
        session->setTimeout(left, left, left);
        std::ostream& body = session->sendRequest(outgoing);
        body.exceptions(std::ios::badbit);
        body << request.body;
        session->setTimeout(remaining(deadline));
        Poco::Net::HTTPResponse response;
        std::istream& in = session->receiveResponse(response);
        in.exceptions(std::ios::badbit);  // a failed read rethrows instead of ending the body
        reply.status = static_cast<int>(response.getStatus());
        char buffer[16384];
        while (in) {
            session->setTimeout(remaining(deadline));
            in.read(buffer, sizeof(buffer));
            reply.body.append(buffer, static_cast<std::size_t>(in.gcount()));
            if (static_cast<int64_t>(reply.body.size()) > max_response_bytes_) {
                throw TransportError("answer larger than " + std::to_string(max_response_bytes_) +
                                     " bytes");
            }
        }
    } catch (const Poco::TimeoutException&) {
        throw TransportError("timed out");
    } catch (const Poco::Exception& error) {
        throw TransportError(error.displayText());
    } catch (const std::ios_base::failure& error) {
        throw TransportError(error.what());
    }
    return reply;
}

}  // namespace loupe::git
