#pragma once
// What the core owns and lends to every plugin's Host. Built by `loupe serve`/`migrate`/tests.

#include <string>

#include "config/config.hpp"
#include "jobs/job_signal.hpp"
#include "loupe/auth/identity.hpp"
#include "loupe/blob/blob_store.hpp"
#include "loupe/db/database.hpp"
#include "loupe/log/logger.hpp"
#include "plugin/registries.hpp"

namespace loupe {

struct CoreContext {
    Config& config;
    Database& database;
    Identity& identity;
    BlobStore& blobs;
    Registries& registries;
    /// Wakes this process's idle job workers when a plugin enqueues.
    JobSignal& job_signal;
    LogLevel log_level = LogLevel::info;
    /// Base of every URL the API returns; set once the HTTP port is known.
    std::string public_url;
};

}  // namespace loupe
