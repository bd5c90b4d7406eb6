#pragma once
// The BuildDeletion service: the observers other plugins register, called by retention.

#include <vector>

#include "loupe/builds/build_deletion.hpp"

namespace loupe::builds {

class BuildDeletionImpl final : public BuildDeletion {
public:
    void observe(BuildDeletionObserver observer) override {
        observers_.push_back(std::move(observer));
    }

    /// Calls every observer inside the caller's transaction; their counts, in order.
    DeletedRows notify(soci::session& session, const DeletedBuilds& deleted) const {
        DeletedRows rows;
        for (const auto& observer : observers_) {
            for (auto& counted : observer(session, deleted)) {
                rows.push_back(std::move(counted));
            }
        }
        return rows;
    }

private:
    std::vector<BuildDeletionObserver> observers_;
};

}  // namespace loupe::builds
