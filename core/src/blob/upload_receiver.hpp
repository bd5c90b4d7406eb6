#pragma once
// Receives the bytes of one upload for a known key, whatever the form (PUT body or multipart
// file part): streams them in chunks into a TemporaryUpload while hashing, then publishes them
// only when they hash to the key. Never holds more than one chunk in memory.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "blob/local_blob_store.hpp"
#include "blob/temporary_upload.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

/// Reads up to `size` bytes into `buffer`; 0 at the end.
using ByteSource = std::function<std::size_t(char* buffer, std::size_t size)>;

class UploadReceiver {
public:
    UploadReceiver(LocalBlobStore& store, std::string key, uint64_t max_bytes);

    /// Streams `source` to its end; HttpError 413 (the temporary file removed) as soon as it
    /// exceeds the limit.
    void receive(const ByteSource& source);
    uint64_t size() const { return upload_.size(); }
    /// Refuses an empty upload or one whose SHA-256 is not the key (HttpError 400, nothing
    /// stored), else publishes it under the key and logs `blob.uploaded`.
    BlobInfo publish(Logger& log);

private:
    std::string key_;
    uint64_t max_bytes_;
    TemporaryUpload upload_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

/// The 413 every upload route answers: `Upload exceeds the maximum size of N bytes`.
HttpError upload_too_large(uint64_t max_bytes);

}  // namespace loupe
