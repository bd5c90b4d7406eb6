#pragma once
// The fuzzer's input: [flags: 1 byte][base length: 4 bytes, little-endian][base][head].
// Flags pick the threshold (bits 0-1), the thread count (bit 2) and whether a mask is wanted
// (bit 3). A base length past the end means "everything left", so any input is usable.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace loupe::imagediff::fuzz {

struct Input {
    uint8_t flags = 0;
    std::span<const uint8_t> base;
    std::span<const uint8_t> head;
};

inline constexpr size_t kHeaderBytes = 5;

inline Input split_input(std::span<const uint8_t> data) {
    Input input;
    if (data.size() < kHeaderBytes) {
        return input;
    }
    input.flags = data[0];
    const size_t declared = uint32_t{data[1]} | uint32_t{data[2]} << 8 | uint32_t{data[3]} << 16 |
                            uint32_t{data[4]} << 24;
    const std::span<const uint8_t> rest = data.subspan(kHeaderBytes);
    const size_t base_size = std::min(declared, rest.size());
    input.base = rest.first(base_size);
    input.head = rest.subspan(base_size);
    return input;
}

inline std::vector<uint8_t> join_input(uint8_t flags, std::span<const uint8_t> base,
                                       std::span<const uint8_t> head) {
    std::vector<uint8_t> data = {flags};
    for (int shift = 0; shift < 32; shift += 8) {
        data.push_back(static_cast<uint8_t>(base.size() >> shift));
    }
    data.insert(data.end(), base.begin(), base.end());
    data.insert(data.end(), head.begin(), head.end());
    return data;
}

}  // namespace loupe::imagediff::fuzz
