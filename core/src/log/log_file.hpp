#pragma once
// `log.file`: the file `loupe serve` writes its log to instead of the standard error it
// inherited. The file takes the place of descriptor 2, so every logger and anything else
// written to stderr lands in it. reopen() (on SIGHUP) opens the path again after a log rotation
// moved the old file away; lines written meanwhile went to the old file, none is lost.

#include <string>

#include "loupe/export.hpp"

namespace loupe {

class LOUPE_API LogFile {
public:
    /// Opens `path` for appending (created 0600) and points stderr at it; throws
    /// std::runtime_error naming the path when it cannot be opened.
    explicit LogFile(std::string path);
    LogFile(const LogFile&) = delete;
    LogFile& operator=(const LogFile&) = delete;

    /// Opens the path again and points stderr at the new file. On failure stderr keeps the old
    /// file and the reason is returned; empty on success.
    std::string reopen();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace loupe
