#pragma once
// `loupe admin backup DIR` and `loupe admin restore DIR`.
//
// A backup folder holds:
//   backup.json   what it holds (format, time, database kind, blob backend, counts)
//   loupe.db      the SQLite database, copied online (SQLite only; PostgreSQL: pg_dump)
//   blobs.txt     the blob manifest: "<sha256> <size>" per line, sorted
//   blobs/        local backend: the blob files, hard-linked from the data folder when it is
//                 on the same filesystem (blobs are immutable, so a link is a copy that costs
//                 nothing), copied otherwise; S3: absent (the bucket holds them)
//   secret.key    the URL signing secret of the data folder, when it has one
// The database is copied first, then the blobs: every blob a row of the copy references was
// stored before the copy began, and blobs are only deleted by the blob sweep, once unreferenced
// (do not run `loupe admin prune` during a backup).

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

class Config;
class Runtime;

/// Returns the exit code.
LOUPE_API int run_backup_command(Runtime& runtime, const std::vector<std::string>& args,
                                 std::ostream& out, std::ostream& err);
/// Runs before anything opens the database (the data folder must be empty).
LOUPE_API int run_restore_command(const Config& config, const std::vector<std::string>& args,
                                  std::ostream& out, std::ostream& err);

}  // namespace loupe
