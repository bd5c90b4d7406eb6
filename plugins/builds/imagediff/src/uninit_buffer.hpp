#pragma once
// A growable byte buffer that never zero-fills: scratch space that is always fully written
// before it is read (inflate output, concatenated IDAT data). It only grows, so a long-lived
// owner pays for allocation and page faults once.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "pixel_memory.hpp"

namespace loupe::imagediff {

class UninitBuffer {
public:
    /// Makes room for `size` bytes plus `slack` readable bytes after them; keeps nothing.
    uint8_t* prepare(size_t size, size_t slack = 0) {
        const size_t needed = size + slack;
        if (needed > capacity_) {
            data_.reset();
            data_.reset(new uint8_t[needed]);  // default-initialised: no zero fill
            capacity_ = needed;
            advise_huge_pages(data_.get(), needed);
        }
        size_ = size;
        return data_.get();
    }

    uint8_t* data() { return data_.get(); }
    const uint8_t* data() const { return data_.get(); }
    size_t size() const { return size_; }

private:
    std::unique_ptr<uint8_t[]> data_;
    size_t size_ = 0;
    size_t capacity_ = 0;
};

}  // namespace loupe::imagediff
