#pragma once
// `loupe admin blobs migrate --to s3 [--from DIR] [--json]`: copies a local blob folder into
// the configured bucket. Every file is hashed before it is sent (a file whose bytes are not its
// key is reported and left behind), blobs the bucket already holds with the same size are
// skipped, so an interrupted migration is resumed by running it again.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "blob/s3/s3_blob_store.hpp"
#include "loupe/config/config_view.hpp"
#include "loupe/export.hpp"

namespace loupe {

struct BlobMigrationReport {
    uint64_t copied = 0;
    uint64_t skipped = 0;  ///< already in the bucket
    uint64_t bytes_copied = 0;
    std::vector<std::string> corrupt;  ///< files whose content does not hash to their name
};

/// Copies every <root>/<k[0:2]>/<k[2:4]>/<key> file into `store`.
LOUPE_API BlobMigrationReport migrate_blob_folder(const std::string& root, S3BlobStore& store);

/// The `admin blobs ...` subcommand; returns the exit code (1 when a file was corrupt).
LOUPE_API int run_blobs_admin_command(const ConfigView& config, const std::string& data_dir,
                                      const std::vector<std::string>& args, std::ostream& out,
                                      std::ostream& err, Logger& log);

}  // namespace loupe
