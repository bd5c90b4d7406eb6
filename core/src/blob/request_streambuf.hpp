#pragma once
// A read-only std::streambuf over a streamed request body (Request::read), so stream-based
// parsers (Poco's MultipartReader) can consume an upload without buffering it whole.

#include <cstddef>
#include <cstdint>
#include <streambuf>
#include <vector>

#include "loupe/http/request.hpp"

namespace loupe {

class RequestStreamBuf final : public std::streambuf {
public:
    explicit RequestStreamBuf(Request& request, std::size_t buffer_size = 64 * 1024);

    /// Body bytes taken from the request so far.
    uint64_t bytes_read() const { return bytes_read_; }
    /// True once Request::read reported the end (or the client went away).
    bool reached_end() const { return reached_end_; }

protected:
    int_type underflow() override;

private:
    Request& request_;
    std::vector<char> buffer_;
    uint64_t bytes_read_ = 0;
    bool reached_end_ = false;
};

}  // namespace loupe
