#pragma once
// The decode floor of the benchmark: read a PNG file and decode it to RGBA8 with libspng
// (library defaults, CRC checks on, one thread), into buffers reused across calls.

#include <cstdint>
#include <string>
#include <vector>

namespace loupe::bench {

class SpngDecoder {
public:
    /// Decodes the file; returns its pixel count. Throws std::runtime_error on failure.
    uint64_t decode_file(const std::string& path);

private:
    std::vector<uint8_t> file_;
    std::vector<uint8_t> rgba_;
};

}  // namespace loupe::bench
