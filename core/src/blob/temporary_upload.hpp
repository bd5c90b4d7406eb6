#pragma once
// One upload on its way into a LocalBlobStore: the bytes go to a fresh temporary file of the
// store while being hashed with SHA-256. Only publish() makes them visible under a key; an
// upload destroyed before that (refused, failed, client gone) removes its file.
// THREADS: one thread at a time.

#include <cstddef>
#include <cstdint>
#include <string>

#include "blob/local_blob_store.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API TemporaryUpload {
public:
    explicit TemporaryUpload(LocalBlobStore& store);
    ~TemporaryUpload();
    TemporaryUpload(const TemporaryUpload&) = delete;
    TemporaryUpload& operator=(const TemporaryUpload&) = delete;

    /// Appends bytes; throws std::system_error when the disk refuses them.
    void write(const char* data, std::size_t size);
    uint64_t size() const { return size_; }
    /// Closes the file and returns the lower-case hex SHA-256 of everything written. Once.
    std::string finish();
    /// Moves the finished file under `key` (LocalBlobStore::publish: fsync, rename).
    void publish(const std::string& key);

private:
    void close_file();

    LocalBlobStore& store_;
    std::string path_;
    int fd_ = -1;
    crypto::Sha256 sha_;
    uint64_t size_ = 0;
    bool published_ = false;
};

}  // namespace loupe
