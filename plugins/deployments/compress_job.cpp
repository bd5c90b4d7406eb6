#include "compress_job.hpp"

#include <libdeflate.h>
#include <soci/soci.h>

#include <memory>
#include <stdexcept>
#include <tuple>

#include "content_types.hpp"
#include "store/contents.hpp"
#include "store/deployment.hpp"

namespace loupe::deployments {
namespace {

/// Smaller contents are sent as they are: a gzip header and trailer would eat the gain.
constexpr int64_t min_compressed_size = 256;

struct CompressorDeleter {
    void operator()(libdeflate_compressor* compressor) const {
        libdeflate_free_compressor(compressor);
    }
};

std::optional<std::string> gzip_of(libdeflate_compressor* compressor, const std::string& bytes) {
    std::string out(libdeflate_gzip_compress_bound(compressor, bytes.size()), '\0');
    const std::size_t size =
        libdeflate_gzip_compress(compressor, bytes.data(), bytes.size(), out.data(), out.size());
    if (size == 0 || size > bytes.size() * 9 / 10) {
        return std::nullopt;
    }
    out.resize(size);
    return out;
}

}  // namespace

void compress_deployment(Host& host, int64_t deployment_id, int level) {
    std::vector<PendingCompression> pending;
    {
        auto session = host.db().session();
        if (!find_deployment(*session, host.db().dialect(), deployment_id)) {
            return;  // pruned meanwhile
        }
        pending = contents_to_compress(*session, deployment_id);
    }
    std::unique_ptr<libdeflate_compressor, CompressorDeleter> compressor(
        libdeflate_alloc_compressor(level));
    if (!compressor) {
        throw std::runtime_error("libdeflate_alloc_compressor failed");
    }
    // Outcomes are written in batches: one transaction per content would be thousands of them.
    constexpr std::size_t batch = 256;
    std::vector<std::tuple<std::string, std::optional<std::string>, int64_t>> outcomes;
    const auto flush = [&] {
        host.db().transaction([&](soci::session& session) {
            for (const auto& [hash, key, size] : outcomes) {
                record_gzip_variant(session, hash, key, size);
            }
        });
        outcomes.clear();
    };
    for (const auto& content : pending) {
        std::optional<std::string> variant;
        if (content.size >= min_compressed_size && is_compressible_type(content.content_type)) {
            if (auto bytes = host.blobs().read(content.hash)) {
                variant = gzip_of(compressor.get(), *bytes);
            }
        }
        std::optional<std::string> key;
        int64_t size = 0;
        if (variant) {
            key = host.blobs().put(
                std::span(reinterpret_cast<const uint8_t*>(variant->data()), variant->size()));
            size = static_cast<int64_t>(variant->size());
        }
        outcomes.emplace_back(content.hash, key, size);
        if (outcomes.size() == batch) {
            flush();
        }
    }
    flush();
    host.db().transaction([&](soci::session& session) { mark_compressed(session, deployment_id); });
}

}  // namespace loupe::deployments
