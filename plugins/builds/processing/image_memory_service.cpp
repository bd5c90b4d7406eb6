#include "processing/image_memory_service.hpp"

#include "processing/diff_memory_need.hpp"

namespace loupe::builds {
namespace {

class BudgetReservation final : public ImageMemory::Reservation {
public:
    BudgetReservation(DiffMemoryBudget& budget, uint64_t bytes) : grant_(budget.acquire(bytes)) {}
    uint64_t bytes() const override { return grant_.bytes(); }

private:
    DiffMemoryBudget::Grant grant_;
};

}  // namespace

ImageMemoryService::ImageMemoryService(std::shared_ptr<DiffMemoryBudget> budget,
                                       metrics::Metrics* metrics)
    : budget_(std::move(budget)), metrics_(metrics) {
    if (metrics_ != nullptr) {
        DiffMemoryBudget* held = budget_.get();
        metrics_->gauge("loupe_image_memory_reserved_bytes",
                        "Bytes of the image memory budget (plugins.builds.diff_memory_mb) held "
                        "now by diffs and thumbnails being decoded.",
                        [held] { return static_cast<double>(held->in_use()); });
        metrics_->gauge("loupe_image_memory_capacity_bytes",
                        "The image memory budget (plugins.builds.diff_memory_mb).",
                        [held] { return static_cast<double>(held->capacity()); });
    }
}

uint64_t ImageMemoryService::decode_need(std::span<const uint8_t> prefix, uint64_t file_bytes) {
    return diff_memory_need(nullptr, StoredImage{prefix, file_bytes}).total();
}

std::unique_ptr<ImageMemory::Reservation> ImageMemoryService::reserve(uint64_t bytes,
                                                                      const std::string& purpose) {
    auto reservation = std::make_unique<BudgetReservation>(*budget_, bytes);
    if (auto* counter = counter_for(purpose)) {
        counter->add();
    }
    return reservation;
}

metrics::Counter* ImageMemoryService::counter_for(const std::string& purpose) {
    if (metrics_ == nullptr) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    auto& counter = counters_[purpose];
    if (counter == nullptr) {
        counter = &metrics_->counter("loupe_image_memory_reservations_total",
                                     "Reservations of the image memory budget by other plugins' "
                                     "decoders, by purpose (thumbnail, ...).",
                                     {{"purpose", purpose}});
    }
    return counter;
}

}  // namespace loupe::builds
