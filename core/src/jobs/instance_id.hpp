#pragma once

#include <string>

#include "loupe/export.hpp"

namespace loupe {

/// "hostname:pid:random": who holds a job's lease (jobs.locked_by). The random part tells a
/// restarted process that reused a pid from its predecessor.
LOUPE_API std::string new_instance_id();

}  // namespace loupe
