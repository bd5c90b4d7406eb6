#pragma once
// Each job worker's diff engine and the memory its diffs take. The engine's buffers grow to the
// largest pair it compared; it keeps them from one diff to the next (sparing the allocations
// and page faults) only while they may hold up to the retained size, and gives them back to
// the system after a larger pair, so that one large diff does not keep its memory for good.

#include <cstdint>
#include <memory>

#include "loupe/imagediff/imagediff.hpp"
#include "processing/diff_memory_budget.hpp"
#include "processing/diff_memory_need.hpp"

namespace loupe::builds {

class WorkerEngine {
public:
    imagediff::Differ& differ();

    /// Counts a comparison of `need` made with differ(); drops the engine (the next diff makes
    /// a new one) once its buffers may hold more than `retained_bytes`. Returns whether it did.
    bool settle(const DiffMemoryNeed& need, uint64_t retained_bytes);

private:
    std::unique_ptr<imagediff::Differ> differ_;
    DiffMemoryNeed held_;  ///< the largest of each part over the comparisons since made
};

/// The calling thread's engine.
WorkerEngine& worker_engine();

/// One decode or comparison's memory: reserved from the budget for its lifetime (waiting until
/// it fits), then, as it goes, the engine settled and freed memory returned to the system.
class DiffReservation {
public:
    /// `engine` is null for a decode outside the engine.
    DiffReservation(DiffMemoryBudget& budget, const DiffMemoryNeed& need, WorkerEngine* engine,
                    uint64_t retained_bytes);
    ~DiffReservation();
    DiffReservation(const DiffReservation&) = delete;
    DiffReservation& operator=(const DiffReservation&) = delete;

private:
    DiffMemoryBudget::Grant grant_;
    DiffMemoryNeed need_;
    WorkerEngine* engine_;
    uint64_t retained_bytes_;
};

}  // namespace loupe::builds
