#include "loupe/files/private_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "loupe/crypto/random.hpp"

namespace loupe::files {

bool create_private_file(const std::string& path, std::string_view content) {
    if (std::filesystem::exists(path)) {
        return false;
    }
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
        std::filesystem::create_directories(parent);
    }
    // A temporary of this call's own: two instances never write into the same one.
    const auto temporary = path + "." + crypto::random_hex(6) + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    const bool written =
        fd >= 0 &&
        ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()) &&
        ::fsync(fd) == 0;
    if (fd >= 0) {
        ::close(fd);
    }
    if (!written) {
        std::filesystem::remove(temporary);
        throw std::runtime_error("cannot write " + temporary);
    }
    // link() refuses to replace an existing file, unlike rename(): the first writer wins.
    const bool created = ::link(temporary.c_str(), path.c_str()) == 0;
    std::filesystem::remove(temporary);
    if (!created && !std::filesystem::exists(path)) {
        throw std::runtime_error("cannot create " + path);
    }
    return created;
}

}  // namespace loupe::files
