#pragma once
// What the registries keep per job kind: its handler and its optional give-up handler.

#include <map>
#include <string>

#include "loupe/jobs/job_queue.hpp"

namespace loupe {

struct JobKindHandlers {
    JobHandler run;
    JobGiveUpHandler on_give_up;  ///< may be empty
};

using JobKindTable = std::map<std::string, JobKindHandlers>;

}  // namespace loupe
