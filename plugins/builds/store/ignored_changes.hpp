#pragma once
// Ignored changes: a (project, test, fingerprint) that stops asking for review, and the audit
// of who ignored or unignored it. A person's unignore keeps auto-ignore from ignoring the
// change again.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace loupe::builds {

/// Who changed an ignore state: a person (with their user id) or Loupe's auto-ignore.
struct IgnoreActor {
    std::optional<int64_t> user_id;  ///< none: auto-ignore
};

/// Records (project, test, fingerprint) as ignored, with its audit row (idempotent: an already
/// ignored change gets no new audit row).
void record_ignored_change(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint, const IgnoreActor& actor);
/// Removes the ignore, with its audit row (idempotent).
void remove_ignored_change(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint, const IgnoreActor& actor);
/// Whether (project, test, fingerprint) is an ignored change now.
bool change_is_ignored(soci::session& session, int64_t project_id, int64_t test_id,
                       const std::string& fingerprint);
/// True when the latest ignore/unignore of the change was a person's unignore.
bool unignored_by_a_person(soci::session& session, int64_t project_id, int64_t test_id,
                           const std::string& fingerprint);
/// The ignored changes (test, fingerprint) of the given tests.
std::set<std::pair<int64_t, std::string>> ignored_changes_of(soci::session& session,
                                                             int64_t project_id,
                                                             const std::vector<int64_t>& test_ids);
/// The fingerprint of a diff of the test whose fingerprint ends with `:<hash>`, if any.
std::optional<std::string> fingerprint_with_hash(soci::session& session, int64_t test_id,
                                                 const std::string& hash);
/// `fingerprint` when a diff of the test has it, else nullopt.
std::optional<std::string> known_fingerprint(soci::session& session, int64_t test_id,
                                             const std::string& fingerprint);
/// Whether the test belongs to the project.
bool test_in_project(soci::session& session, int64_t project_id, int64_t test_id);

}  // namespace loupe::builds
