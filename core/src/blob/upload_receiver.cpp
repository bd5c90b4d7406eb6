#include "blob/upload_receiver.hpp"

#include <memory>

namespace loupe {
namespace {

constexpr std::size_t chunk_size = 256 * 1024;

}  // namespace

HttpError upload_too_large(uint64_t max_bytes) {
    return {413, "Upload exceeds the maximum size of " + std::to_string(max_bytes) + " bytes"};
}

UploadReceiver::UploadReceiver(LocalBlobStore& store, std::string key, uint64_t max_bytes)
    : key_(std::move(key)), max_bytes_(max_bytes), upload_(store) {}

void UploadReceiver::receive(const ByteSource& source) {
    const auto buffer = std::make_unique<char[]>(chunk_size);
    while (const std::size_t count = source(buffer.get(), chunk_size)) {
        if (upload_.size() + count > max_bytes_) {
            throw upload_too_large(max_bytes_);
        }
        upload_.write(buffer.get(), count);
    }
}

BlobInfo UploadReceiver::publish(Logger& log) {
    if (upload_.size() == 0) {
        throw HttpError::bad_request("Upload is empty");
    }
    const std::string sha = upload_.finish();
    if (sha != key_) {
        throw HttpError::bad_request("Uploaded content does not match its key (expected " + key_ +
                                     ", got " + sha + ")");
    }
    upload_.publish(key_);
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started_);
    log.info("blob.uploaded", {{"key", key_},
                               {"size", std::to_string(upload_.size())},
                               {"ms", std::to_string(elapsed.count())}});
    return {key_, upload_.size()};
}

}  // namespace loupe
