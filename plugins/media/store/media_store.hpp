#pragma once
// The media plugin's rows: `media` (one name and state of a project, on a branch or a pull
// request) and `media_versions` (each upload of other bytes under it).

#include <soci/soci.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace loupe::media {

struct MediaRow {
    int64_t id = 0;
    int64_t project_id = 0;
    std::string name;
    std::optional<std::string> state;  ///< before | after
    std::optional<std::string> description;
    std::optional<std::string> branch;
    std::optional<int64_t> pr_number;  ///< set: published to that pull request
    std::string visibility;            ///< team | public
    std::string share_token;
    int64_t created_at = 0;
};

struct VersionRow {
    int64_t id = 0;
    int64_t media_id = 0;
    int64_t number = 0;
    std::string blob_key;
    std::string content_type;
    int64_t size_bytes = 0;
    std::optional<int64_t> width;
    std::optional<int64_t> height;
    std::string file_token;
    std::optional<int64_t> uploaded_at;
    int64_t created_at = 0;
};

/// The identity a new upload is filed under.
struct MediaIdentity {
    int64_t project_id = 0;
    std::string name;
    std::optional<std::string> state;
    std::optional<std::string> branch;
    std::optional<int64_t> pr_number;
};

std::optional<MediaRow> find_media(soci::session& session, int64_t id);
/// The media an upload of `identity` versions: on its pull request (or, staged on its branch,
/// one the pull request adopts), else on its branch, else one with neither.
std::optional<MediaRow> find_media_for(soci::session& session, const MediaIdentity& identity);
/// Another media of the project with this branch, name and state, staged (no pull request).
bool staged_name_taken(soci::session& session, const MediaRow& media,
                       const std::optional<std::string>& branch, const std::string& name);
int64_t insert_media(soci::session& session, const MediaRow& media);
/// Publishes the project's staged media of `branch` (with an uploaded version) to pull request
/// `pr_number`, but for those whose name and state that pull request already has; the number
/// published.
int64_t adopt_staged_media(soci::session& session, int64_t project_id, const std::string& branch,
                           int64_t pr_number);
void update_media(soci::session& session, const MediaRow& media);
void delete_media(soci::session& session, int64_t id);

std::optional<MediaRow> find_media_by_share_token(soci::session& session, const std::string& token);
/// The uploaded version served at this file token.
std::optional<VersionRow> find_uploaded_version(soci::session& session, const std::string& token);

/// Newest first.
std::vector<VersionRow> media_versions(soci::session& session, int64_t media_id);
/// The versions of each of `media_ids`, newest first (one statement for any number of media).
std::map<int64_t, std::vector<VersionRow>> versions_of_media(soci::session& session,
                                                             const std::vector<int64_t>& media_ids);
int64_t insert_version(soci::session& session, const VersionRow& version);
void mark_uploaded(soci::session& session, const VersionRow& version);

/// The subset of `keys` that versions of media hold (one statement for any number of keys).
std::set<std::string> referenced_blob_keys(soci::session& session,
                                           const std::vector<std::string>& keys);

struct MediaQuery {
    int64_t project_id = 0;
    std::optional<std::string> branch;
    std::optional<int64_t> pr_number;
    std::optional<std::string> stage;   ///< staged | published
    std::optional<std::string> search;  ///< in the name or the description
    std::optional<std::string> type;    ///< image | video (the newest uploaded version's)
    int64_t limit = 30;
    int64_t offset = 0;
};

/// The project's media with at least one uploaded version, newest first, and their total.
std::pair<std::vector<MediaRow>, int64_t> list_media(soci::session& session,
                                                     const MediaQuery& query);

}  // namespace loupe::media
