#include "blob/request_streambuf.hpp"

namespace loupe {

RequestStreamBuf::RequestStreamBuf(Request& request, std::size_t buffer_size)
    : request_(request), buffer_(buffer_size) {
    setg(buffer_.data(), buffer_.data(), buffer_.data());
}

RequestStreamBuf::int_type RequestStreamBuf::underflow() {
    if (gptr() < egptr()) {
        return traits_type::to_int_type(*gptr());
    }
    if (reached_end_) {
        return traits_type::eof();
    }
    const std::size_t count = request_.read(buffer_.data(), buffer_.size());
    if (count == 0) {
        reached_end_ = true;
        return traits_type::eof();
    }
    bytes_read_ += count;
    setg(buffer_.data(), buffer_.data(), buffer_.data() + count);
    return traits_type::to_int_type(*gptr());
}

}  // namespace loupe
