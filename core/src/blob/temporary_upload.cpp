#include "blob/temporary_upload.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace loupe {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
    throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

TemporaryUpload::TemporaryUpload(LocalBlobStore& store)
    : store_(store), path_(store.temporary_path()) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0) {
        throw_errno("cannot create " + path_);
    }
}

TemporaryUpload::~TemporaryUpload() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
    if (!published_) {
        std::error_code ignored;  // nothing useful to do about a failed cleanup here
        std::filesystem::remove(path_, ignored);
    }
}

void TemporaryUpload::write(const char* data, std::size_t size) {
    if (fd_ < 0) {
        throw std::logic_error("write after finish on " + path_);
    }
    sha_.update(data, size);
    size_ += size;
    while (size > 0) {
        const ssize_t written = ::write(fd_, data, size);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_errno("cannot write " + path_);
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
}

std::string TemporaryUpload::finish() {
    close_file();
    return sha_.finish_hex();
}

void TemporaryUpload::publish(const std::string& key) {
    close_file();
    store_.publish(path_, key);
    published_ = true;
}

void TemporaryUpload::close_file() {
    if (fd_ < 0) {
        return;
    }
    const int result = ::close(fd_);
    fd_ = -1;
    if (result != 0) {
        throw_errno("cannot close " + path_);
    }
}

}  // namespace loupe
