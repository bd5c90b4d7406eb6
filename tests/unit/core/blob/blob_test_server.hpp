#pragma once
// An HttpServer on an ephemeral port serving only the blob routes over a LocalBlobStore in a
// temporary folder, plus helpers to make content, keys, signed targets and upload forms.

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "auth/authenticator.hpp"
#include "blob/local_blob_store.hpp"
#include "blob/upload_routes.hpp"
#include "http/router.hpp"
#include "http/server.hpp"
#include "support/test_database.hpp"
#include "unit/core/http/capturing_logger.hpp"
#include "unit/core/http/null_database.hpp"

namespace loupe::test {

inline std::string sha256_hex(const std::string& bytes) {
    Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
    sha.update(bytes);
    return Poco::DigestEngine::digestToHex(sha.digest());
}

/// Deterministic bytes that do not compress and contain CR, LF and '-' (multipart-hostile).
inline std::string random_bytes(std::size_t size, unsigned seed = 1) {
    std::mt19937 generator(seed);
    std::string bytes(size, '\0');
    for (char& c : bytes) {
        c = static_cast<char>(generator() & 0xff);
    }
    return bytes;
}

/// Files currently in a folder (not recursive).
inline std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        names.push_back(entry.path().filename().string());
    }
    return names;
}

/// A multipart/form-data body: `fields` in order, then a part named "file".
struct UploadForm {
    std::string boundary = "----loupe-test-boundary-7MA4YWxkTrZu0gW";
    std::vector<std::pair<std::string, std::string>> fields;
    std::string file;
    std::string file_content_type;  ///< empty: the file part declares none
    std::vector<std::pair<std::string, std::string>> fields_after_file;

    std::string content_type() const { return "multipart/form-data; boundary=" + boundary; }

    std::string body() const {
        std::string text;
        const auto add_field = [&](const std::string& name, const std::string& value) {
            text += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name +
                    "\"\r\n\r\n" + value + "\r\n";
        };
        for (const auto& [name, value] : fields) {
            add_field(name, value);
        }
        text += "--" + boundary +
                "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"shot.png\"\r\n";
        if (!file_content_type.empty()) {
            text += "Content-Type: " + file_content_type + "\r\n";
        }
        text += "\r\n" + file + "\r\n";
        for (const auto& [name, value] : fields_after_file) {
            add_field(name, value);
        }
        return text + "--" + boundary + "--\r\n";
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

    TempDir folder;
    const std::string store_root = folder.path() + "/blobs";
    const std::string secret = std::string(64, 's');
    LocalBlobStore store{store_root, UrlSigner(secret), [this] { return public_url(); }};
    CapturingLogger log;
    CollectingRoutes collected;
    std::unique_ptr<Router> router;
    NullDatabase database;
    std::map<std::string, TokenResolver> resolvers;
    Authenticator authenticator{database, resolvers};
    std::unique_ptr<HttpServer> server;
    int port = 0;
};

}  // namespace loupe::test
