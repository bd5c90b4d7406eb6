#pragma once
// An RGBA8 image seen through the comparison canvas: pixels outside the image are transparent
// black (0,0,0,0), as when Argos pads the smaller screenshot top-left with sharp.

#include <cstdint>
#include <cstring>
#include <loupe/imagediff/imagediff.hpp>

namespace loupe::imagediff {

class PaddedView {
public:
    PaddedView(const Image& image, uint32_t canvas_width, uint32_t canvas_height)
        : pixels_(image.rgba.data()),
          width_(image.width),
          height_(image.height),
          canvas_width_(canvas_width),
          canvas_height_(canvas_height) {}

    uint32_t canvas_width() const { return canvas_width_; }
    uint32_t canvas_height() const { return canvas_height_; }
    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }

    /// The image's row y (y < height()).
    const uint8_t* row(uint32_t y) const { return pixels_ + size_t{y} * width_ * 4; }

    /// Address of the RGBA bytes at (x, y) on the canvas; padding reads as transparent black.
    const uint8_t* at(uint32_t x, uint32_t y) const {
        static constexpr uint8_t kTransparent[4] = {0, 0, 0, 0};
        if (x >= width_ || y >= height_) {
            return kTransparent;
        }
        return pixels_ + (size_t{y} * width_ + x) * 4;
    }

    /// The raw pixel as odiff reads it (four bytes as one integer), for equality tests only.
    uint32_t raw(uint32_t x, uint32_t y) const { return raw(at(x, y)); }

    static uint32_t raw(const uint8_t* pixel) {
        uint32_t value;
        std::memcpy(&value, pixel, sizeof value);
        return value;
    }

private:
    const uint8_t* pixels_;
    uint32_t width_;
    uint32_t height_;
    uint32_t canvas_width_;
    uint32_t canvas_height_;
};

}  // namespace loupe::imagediff
