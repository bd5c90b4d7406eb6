// The diff memory budget (grants in arrival order while they fit, one over the budget alone)
// and the memory estimate a diff reserves, from the images' headers.
#include "processing/diff_memory_budget.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "loupe/imagediff/imagediff.hpp"
#include "processing/diff_memory_need.hpp"

using namespace loupe::builds;

namespace {

// Long enough for a thread that could take a grant to have taken it.
constexpr auto settle_time = std::chrono::milliseconds(50);

/// Takes `bytes` on its own thread and holds them until release().
class Holder {
public:
    Holder(DiffMemoryBudget& budget, uint64_t bytes)
        : thread_([this, &budget, bytes] {
              const auto grant = budget.acquire(bytes);
              granted_ = true;
              while (!released_) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(1));
              }
          }) {}
    ~Holder() {
        release();
        thread_.join();
    }
    bool granted() const { return granted_; }
    void release() { released_ = true; }
    void wait_granted() const {
        while (!granted_) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

private:
    std::atomic<bool> granted_ = false;
    std::atomic<bool> released_ = false;
    std::thread thread_;
};

std::vector<uint8_t> png_of(uint32_t width, uint32_t height) {
    loupe::imagediff::Image image;
    image.width = width;
    image.height = height;
    image.rgba.assign(std::size_t{width} * height * 4, 0x80);
    return loupe::imagediff::encode_png(image);
}

StoredImage stored(const std::vector<uint8_t>& file) {
    return {file, file.size()};
}

}  // namespace

TEST_CASE("diff memory budget: grants while they fit, then waits for a release") {
    DiffMemoryBudget budget(1000);
    std::optional<Holder> first(std::in_place, budget, 600);
    first->wait_granted();
    const auto second = budget.acquire(300);
    CHECK(budget.in_use() == 900);
    Holder third(budget, 300);
    std::this_thread::sleep_for(settle_time);
    CHECK_FALSE(third.granted());
    first.reset();
    third.wait_granted();
    CHECK(budget.in_use() == 600);
}

TEST_CASE("diff memory budget: a request larger than the budget waits to run alone") {
    DiffMemoryBudget budget(1000);
    std::optional<Holder> small(std::in_place, budget, 1);
    small->wait_granted();
    Holder large(budget, 5000);
    std::this_thread::sleep_for(settle_time);
    CHECK_FALSE(large.granted());
    small.reset();
    large.wait_granted();
    CHECK(budget.in_use() == 1000);
}

TEST_CASE("diff memory budget: requests are served in arrival order") {
    DiffMemoryBudget budget(1000);
    std::optional<Holder> held(std::in_place, budget, 600);
    held->wait_granted();
    Holder large(budget, 800);
    std::this_thread::sleep_for(settle_time);
    // This one would fit now, but the larger request came first.
    Holder small(budget, 100);
    std::this_thread::sleep_for(settle_time);
    CHECK_FALSE(large.granted());
    CHECK_FALSE(small.granted());
    held.reset();
    large.wait_granted();
    small.wait_granted();
    CHECK(budget.in_use() == 900);
}

TEST_CASE("diff memory budget: the default is half the memory, and a setting overrides it") {
    CHECK(default_diff_memory_bytes() >= uint64_t{256} << 20);
    CHECK(diff_memory_bytes_setting(0) == default_diff_memory_bytes());
    CHECK(diff_memory_bytes_setting(-5) == default_diff_memory_bytes());
    CHECK(diff_memory_bytes_setting(300) == uint64_t{300} << 20);
}

TEST_CASE("diff memory need: worked out from the headers before decoding") {
    // RGBA, 8 bits: the fast decoder inflates the scanlines into the RGBA buffer itself, four
    // output rows in, so a side costs its pixels, four rows and a filter byte per row.
    const auto base = png_of(300, 200);
    const auto head = png_of(100, 400);
    const StoredImage base_image = stored(base);
    const DiffMemoryNeed need = diff_memory_need(&base_image, stored(head));
    CHECK(need.base == 3 * base.size() + 4 * 300 * 200 + 4 * 1200 + 200);
    CHECK(need.head == 3 * head.size() + 4 * 100 * 400 + 4 * 400 + 400);
    // The canvas is 300 x 400: two 1-bit masks, the encoded one and the fingerprint's copy.
    CHECK(need.canvas == 4 * 400 * (38 + 1));
    CHECK(need.total() > need.base + need.head + need.canvas);

    const DiffMemoryNeed alone = diff_memory_need(nullptr, stored(head));
    CHECK(alone.base == 0);
    CHECK(alone.head == need.head);
    CHECK(alone.canvas == 0);
}

TEST_CASE("diff memory need: a file the decoder refuses before decoding counts by its size") {
    const std::vector<uint8_t> garbage(5000, 0x42);
    CHECK(diff_memory_need(nullptr, stored(garbage)).head == 3 * garbage.size());

    // A header claiming 400 megapixels: the decoder's pixel limit refuses it up front.
    auto huge = png_of(16, 16);
    huge[16] = 0, huge[17] = 0, huge[18] = 0x4e, huge[19] = 0x20;  // width 20,000
    huge[20] = 0, huge[21] = 0, huge[22] = 0x4e, huge[23] = 0x20;  // height 20,000
    const uint32_t crc = [&] {
        // The IHDR's CRC over its type and data, so that the header still reads as valid.
        uint32_t c = 0xffffffff;
        for (std::size_t i = 12; i < 29; ++i) {
            c ^= huge[i];
            for (int k = 0; k < 8; ++k) {
                c = (c & 1) ? 0xedb88320 ^ (c >> 1) : c >> 1;
            }
        }
        return ~c;
    }();
    for (int i = 0; i < 4; ++i) {
        huge[29 + i] = static_cast<uint8_t>(crc >> (24 - 8 * i));
    }
    REQUIRE(loupe::imagediff::read_image_size(huge).has_value());
    CHECK(loupe::imagediff::read_image_size(huge)->width == 20000);
    CHECK(diff_memory_need(nullptr, stored(huge)).head == 3 * huge.size());
}
