#pragma once
// The SQL differences between SQLite and PostgreSQL, in one place. Portable schema rules used
// by every plugin: ids are `{{id}}` (64-bit auto-increment primary key), times are BIGINT epoch
// milliseconds (UTC), booleans are INTEGER 0/1, JSON is TEXT, blobs of bytes are `{{bytes}}`.
// Both engines accept `INSERT ... RETURNING id` and `ON CONFLICT ... DO NOTHING/UPDATE`.
// Bulk writes: `{{json_rows:NAME}}` is a table of the elements of a JSON array bound to :NAME,
// columns `value` (read fields with `value ->> 'field'`, CAST numbers) and `position`.
// Where the engines cannot share a statement (SQLite changes a column's constraints only by
// rebuilding its table), `{{sqlite}}…{{/sqlite}}` and `{{postgresql}}…{{/postgresql}}` hold
// the text only that engine runs.

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace soci {
class session;
}

namespace loupe {

enum class Dialect { sqlite, postgresql };

/// Keeps the dialect's sections, then replaces `{{id}}`, `{{bytes}}` and `{{json_rows:NAME}}`
/// with the dialect's spelling.
LOUPE_API std::string render_sql(Dialect dialect, std::string_view sql);
LOUPE_API Dialect dialect_of(soci::session& session);
LOUPE_API std::string_view dialect_name(Dialect dialect);

}  // namespace loupe
