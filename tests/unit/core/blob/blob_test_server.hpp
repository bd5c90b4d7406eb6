#pragma once
// An HttpServer on an ephemeral port serving only the blob routes over a LocalBlobStore in a
// temporary folder, with a logger the tests can read.

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "auth/authenticator.hpp"
#include "blob/local_blob_store.hpp"
#include "blob/upload_routes.hpp"
#include "http/router.hpp"
#include "http/server.hpp"
#include "loupe/db/database.hpp"
#include "loupe/log/logger.hpp"
#include "support/test_database.hpp"
#include "unit/core/blob/blob_test_content.hpp"

namespace loupe::blob_test {

/// Keeps the event names and fields of every line.
class MemoryLogger final : public Logger {
public:
    void log(LogLevel, std::string_view event,
             std::initializer_list<LogField> fields = {}) override {
        std::string text;
        for (const auto& [key, value] : fields) {
            text.append(" ").append(key).append("=").append(value);
        }
        std::lock_guard lock(mutex_);
        lines_.emplace_back(event, std::move(text));
    }

    /// The fields (" key=value ...") of every line with this event.
    std::vector<std::string> lines(std::string_view event) const {
        std::lock_guard lock(mutex_);
        std::vector<std::string> found;
        for (const auto& [name, fields] : lines_) {
            if (name == event) {
                found.push_back(fields);
            }
        }
        return found;
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::pair<std::string, std::string>> lines_;
};

/// The blob routes need no token, so the Authenticator never reaches its database.
class NoDatabase final : public Database {
public:
    Dialect dialect() const override { return Dialect::sqlite; }
    SessionLease session() override { throw std::logic_error("the blob tests use no database"); }

protected:
    void run_in_transaction(const std::function<void(soci::session&)>&) override {
        throw std::logic_error("the blob tests use no database");
    }
};

class CollectingRoutes final : public Routes {
public:
    using Routes::add;
    void add(Route route) override { routes.push_back({std::move(route), "core"}); }
    std::vector<RegisteredRoute> routes;
};

struct BlobTestServer {
    explicit BlobTestServer(UploadLimits limits = {}) {
        add_blob_routes(collected, store, limits, log);
        router = std::make_unique<Router>(collected.routes);
        ServerOptions options;
        options.listen_address = "127.0.0.1";
        options.port = 0;
        options.threads = 4;
        server = std::make_unique<HttpServer>(options, *router, authenticator, log);
        port = server->start();
    }

    std::string public_url() const { return "http://127.0.0.1:" + std::to_string(port); }
    /// The path and query of a URL the store signed.
    std::string target(const std::string& url) const { return url.substr(public_url().size()); }
    std::vector<std::string> temporary_files() const { return files_in(store_root + "/tmp"); }
    std::size_t upload_count() const { return log.lines("blob.uploaded").size(); }

    test::TempDir folder;
    const std::string store_root = folder.path() + "/blobs";
    LocalBlobStore store{store_root, UrlSigner(std::string(64, 's')),
                         [this] { return public_url(); }};
    MemoryLogger log;
    CollectingRoutes collected;
    std::unique_ptr<Router> router;
    NoDatabase database;
    std::map<std::string, TokenResolver> resolvers;
    Authenticator authenticator{database, resolvers};
    std::unique_ptr<HttpServer> server;
    int port = 0;
};

}  // namespace loupe::blob_test
