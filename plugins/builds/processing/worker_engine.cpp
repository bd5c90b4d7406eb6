#include "processing/worker_engine.hpp"

#include <malloc.h>

#include <algorithm>

namespace loupe::builds {

imagediff::Differ& WorkerEngine::differ() {
    if (!differ_) {
        differ_ = std::make_unique<imagediff::Differ>();
    }
    return *differ_;
}

bool WorkerEngine::settle(const DiffMemoryNeed& need, uint64_t retained_bytes) {
    // Each buffer only grows, so what the engine holds is bounded by the largest of each part.
    held_.base = std::max(held_.base, need.base);
    held_.head = std::max(held_.head, need.head);
    held_.canvas = std::max(held_.canvas, need.canvas);
    if (held_.base + held_.head + held_.canvas <= retained_bytes) {
        return false;
    }
    differ_.reset();
    held_ = {};
    return true;
}

WorkerEngine& worker_engine() {
    thread_local WorkerEngine engine;
    return engine;
}

DiffReservation::DiffReservation(DiffMemoryBudget& budget, const DiffMemoryNeed& need,
                                 WorkerEngine* engine, uint64_t retained_bytes)
    : grant_(budget.acquire(need.total())),
      need_(need),
      engine_(engine),
      retained_bytes_(retained_bytes) {}

DiffReservation::~DiffReservation() {
    const bool released = engine_ ? engine_->settle(need_, retained_bytes_)
                                  : need_.base + need_.head + need_.canvas > retained_bytes_;
    if (released) {
        // Blocks over the mmap threshold went back when freed; smaller ones stay in the
        // allocator's arenas unless trimmed.
        ::malloc_trim(0);
    }
}

}  // namespace loupe::builds
