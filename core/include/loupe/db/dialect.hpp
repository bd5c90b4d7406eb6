#pragma once
// The SQL differences between SQLite and PostgreSQL, in one place. Portable schema rules used
// by every plugin: ids are `{{id}}` (64-bit auto-increment primary key), times are BIGINT epoch
// milliseconds (UTC), booleans are INTEGER 0/1, JSON is TEXT, blobs of bytes are `{{bytes}}`.
// Both engines accept `INSERT ... RETURNING id` and `ON CONFLICT ... DO NOTHING/UPDATE`.

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

enum class Dialect { sqlite, postgresql };

/// Replaces `{{id}}` and `{{bytes}}` with the dialect's spelling.
LOUPE_API std::string render_sql(Dialect dialect, std::string_view sql);
LOUPE_API std::string_view dialect_name(Dialect dialect);

}  // namespace loupe
