#include "routes/media_routes.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <limits>

#include "content/media_content.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/integer_text.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/http/pagination.hpp"
#include "loupe/http/single_query.hpp"

namespace loupe::media {
namespace {

constexpr const char* media_not_found = "Media not found";
constexpr std::size_t max_name_length = 255;
constexpr std::size_t max_description_length = 2000;
constexpr std::size_t sniff_bytes = std::size_t{64} * 1024;
constexpr int64_t bytes_per_megabyte = int64_t{1024} * 1024;
constexpr const char* token_alphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A media id (path_id: digits only, 1..INT64_MAX); anything else is Argos's 400.
int64_t media_id_of(const std::string& text) {
    const auto id = path_id(text);
    if (!id) {
        throw HttpError::bad_request("Invalid media ID.");
    }
    return *id;
}

void check_length(JsonReader& reader, const char* key, const std::optional<std::string>& value,
                  std::size_t max) {
    if (value && value->size() > max) {
        reader.issue(key,
                     "Too big: expected string to have <=" + std::to_string(max) + " characters");
    }
}

/// 413: a file over plugins.media.max_file_bytes.
HttpError too_large(const MediaSettings& settings) {
    return {413, "File is too large. The maximum file size is " +
                     std::to_string(settings.max_file_bytes / bytes_per_megabyte) + " MB."};
}

struct CreateInput {
    std::string name;
    std::optional<std::string> state;
    std::optional<std::string> description;
    std::string content_type;
    int64_t size = 0;
    std::string hash;
    std::optional<std::string> visibility;
    std::optional<std::string> project;
    std::optional<int64_t> pr_number;
    std::optional<std::string> branch;
};

CreateInput parse_create(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    CreateInput input;
    auto name = reader.string("name", true, 1);
    check_length(reader, "name", name, max_name_length);
    input.state = reader.one_of("state", false, {"before", "after"});
    input.description = reader.string("description", false);
    check_length(reader, "description", input.description, max_description_length);
    auto type = reader.string("contentType", true, 1);
    if (type) {
        input.content_type = normalized_content_type(*type);
        const auto& accepted = accepted_content_types();
        if (std::find(accepted.begin(), accepted.end(), input.content_type) == accepted.end()) {
            std::string list;
            for (const auto& known : accepted) {
                list += (list.empty() ? "" : ", ") + known;
            }
            reader.issue("contentType",
                         "Unsupported content type. Supported content types are: " + list);
        }
    }
    auto size = reader.integer("size", true, 1);
    auto hash = reader.pattern("hash", true, sha256_pattern);
    input.visibility = reader.one_of("visibility", false, {"team", "public"});
    input.project = reader.string("project", false);
    input.pr_number = reader.integer("prNumber", false, 1);
    input.branch = reader.string("branch", false, 1);
    check_length(reader, "branch", input.branch, max_name_length);
    validation.throw_if_any();
    input.name = *name;
    input.size = *size;
    input.hash = *hash;
    std::transform(input.hash.begin(), input.hash.end(), input.hash.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return input;
}

/// The project a new media goes to: the project token's, or the body's `project` for a person.
std::optional<Project> upload_project(Identity& identity, Request& request) {
    const Principal& principal = request.principal();
    if (principal.is_project()) {
        return identity.find_project(principal.project_id);
    }
    const Json& body = request.json();
    const auto field = body.find("project");
    if (field == body.end() || !field->is_string()) {
        throw HttpError::bad_request(
            "`project` is required when uploading with a personal access token. Pass it as "
            "`owner/project`.");
    }
    const auto& name = field->get_ref<const std::string&>();
    const auto slash = name.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == name.size() ||
        name.find('/', slash + 1) != std::string::npos) {
        throw HttpError::bad_request("`project` must be in the `owner/project` format.");
    }
    return identity.authorize_project(principal, name.substr(0, slash), name.substr(slash + 1));
}

class MediaRoutes {
public:
    MediaRoutes(Host& host, const MediaSettings& settings, std::function<MediaUrls()> urls,
                reviews::MediaComments* comments, PullRequestMedia& pull_requests)
        : host_(host),
          settings_(settings),
          urls_(std::move(urls)),
          comments_(comments),
          pull_requests_(pull_requests) {}

    void add() {
        auto& routes = host_.routes();
        routes.add_validated(
            Method::post, "/media", AuthRequirement::project_or_personal_token,
            RouteAccess::object(
                ProjectPermission::contribute,
                [this](Request& request) { return upload_project(host_.identity(), request); },
                "Not found"),
            parse_create,
            [this](Request& request, CreateInput& input) { return create(request, input); });
        routes.add(Method::post, "/media/{mediaId}/finalize",
                   AuthRequirement::project_or_personal_token,
                   media_access(ProjectPermission::contribute),
                   [this](Request& request) { return finalize(request); });
        routes.add(Method::get, "/media/{mediaId}", AuthRequirement::project_or_personal_token,
                   media_access(ProjectPermission::view),
                   [this](Request& request) { return show(request); });
        routes.add_validated(
            Method::patch, "/media/{mediaId}", AuthRequirement::project_or_personal_token,
            media_access(ProjectPermission::contribute),
            [](Request& request) { return object_body(request); },
            [this](Request& request, const Json& body) { return update(request, body); });
        routes.add(Method::del, "/media/{mediaId}", AuthRequirement::project_or_personal_token,
                   media_access(ProjectPermission::contribute),
                   [this](Request& request) { return remove(request); });
        routes.add(Method::get, "/media/{mediaId}/versions",
                   AuthRequirement::project_or_personal_token,
                   media_access(ProjectPermission::view),
                   [this](Request& request) { return versions(request); });
        routes.add(Method::get, "/projects/{owner}/{project}/media",
                   AuthRequirement::project_or_personal_token,
                   RouteAccess::project(ProjectPermission::view),
                   [this](Request& request) { return list(request); });
    }

private:
    RouteAccess media_access(ProjectPermission permission) {
        return RouteAccess::object(permission, media_project_finder(host_), media_not_found);
    }

    /// The media the path names (the guard found it; it may have been deleted since).
    MediaRow media_of(soci::session& session, Request& request) {
        auto media = find_media(session, media_id_of(request.param("mediaId")));
        if (!media) {
            throw HttpError::not_found(media_not_found);
        }
        return *media;
    }

    /// The media described at `version_id` (else its newest uploaded version); `all` its versions,
    /// newest first.
    Json render(const MediaRow& media, const Project& project, const std::vector<VersionRow>& all,
                std::optional<int64_t> version_id = std::nullopt) {
        if (all.empty()) {
            throw HttpError::not_found(media_not_found);
        }
        const VersionRow* described = &described_version(all);
        if (version_id) {
            for (const auto& version : all) {
                if (version.id == *version_id) {
                    described = &version;
                }
            }
        }
        return media_json(media, project, *described, all, urls_());
    }

    Json render(soci::session& session, const MediaRow& media, const Project& project,
                std::optional<int64_t> version_id = std::nullopt) {
        return render(media, project, media_versions(session, media.id), version_id);
    }

    Response create(Request& request, const CreateInput& input) {
        const Project& project = request.access().require_project();
        if (input.size > settings_.max_file_bytes) {
            throw too_large(settings_);
        }
        MediaRow media;
        VersionRow version;
        host_.db().transaction([&](soci::session& session) {
            const MediaIdentity identity{project.id, input.name, input.state, input.branch,
                                         input.pr_number};
            auto existing = find_media_for(session, identity);
            if (existing) {
                media = *existing;
                if (input.visibility) {
                    media.visibility = *input.visibility;
                }
                if (input.description) {
                    media.description = input.description;
                }
                if (input.branch) {
                    media.branch = input.branch;
                }
                if (input.pr_number) {
                    media.pr_number = input.pr_number;  // a staged media the pull request adopts
                }
                update_media(session, media);
            } else {
                media = MediaRow{0,
                                 project.id,
                                 input.name,
                                 input.state,
                                 input.description,
                                 input.branch,
                                 input.pr_number,
                                 input.visibility.value_or(project.is_private ? "team" : "public"),
                                 crypto::random_characters(20, token_alphabet),
                                 now_ms()};
                media.id = insert_media(session, media);
            }
            const auto versions = media_versions(session, media.id);
            if (!versions.empty() && versions.front().blob_key == input.hash &&
                versions.front().content_type == input.content_type) {
                version = versions.front();  // the same bytes again: no new version
                if (version.uploaded_at && media.pr_number) {
                    pull_requests_.refresh(session, media.project_id, *media.pr_number);
                }
                return;
            }
            version = VersionRow{0,
                                 media.id,
                                 versions.empty() ? 1 : versions.front().number + 1,
                                 input.hash,
                                 input.content_type,
                                 input.size,
                                 std::nullopt,
                                 std::nullopt,
                                 crypto::random_characters(32, token_alphabet),
                                 std::nullopt,
                                 now_ms()};
            version.id = insert_version(session, version);
        });
        Json upload = nullptr;
        if (!version.uploaded_at) {
            if (host_.blobs().exists(version.blob_key)) {
                complete_upload(version);  // bytes already held: nothing to send
            } else {
                auto [url, fields] = host_.blobs().signed_post_form(
                    version.blob_key, version.content_type, settings_.upload_ttl_ms);
                Json form = Json::object();
                for (const auto& [name, value] : fields) {
                    form[name] = value;
                }
                upload = {{"url", url}, {"fields", form}};
            }
        }
        auto session = host_.db().session();
        return Response::json(
            {{"media", render(*session, media, project, version.id)}, {"upload", upload}}, 201);
    }

    /// Checks the received bytes and marks the version uploaded; 400 when they are missing or
    /// not what was declared.
    void complete_upload(VersionRow& version) {
        auto& blobs = host_.blobs();
        const auto info = blobs.stat(version.blob_key);
        if (!info) {
            throw HttpError::bad_request(
                "The file has not been uploaded yet. Upload it to the signed URL returned by the "
                "create call, then finalize again.");
        }
        if (static_cast<int64_t>(info->size) > settings_.max_file_bytes) {
            throw too_large(settings_);
        }
        const auto head = blobs.read_prefix(version.blob_key, sniff_bytes).value_or("");
        const auto sniffed = sniff_media(head);
        if (!sniffed) {
            throw HttpError::bad_request(
                "Uploaded bytes are of an unrecognized type, not the "
                "declared " +
                version.content_type + ".");
        }
        if (is_video_type(sniffed->content_type) != is_video_type(version.content_type)) {
            throw HttpError::bad_request("Uploaded bytes are " + sniffed->content_type +
                                         ", not the declared " + version.content_type + ".");
        }
        // The bytes decide what is served, within the declared kind.
        version.content_type = sniffed->content_type;
        version.size_bytes = static_cast<int64_t>(info->size);
        version.width = sniffed->width;
        version.height = sniffed->height;
        version.uploaded_at = now_ms();
        host_.db().transaction([&](soci::session& session) {
            mark_uploaded(session, version);
            const auto media = find_media(session, version.media_id);
            if (media && media->pr_number) {
                pull_requests_.refresh(session, media->project_id, *media->pr_number);
            }
        });
    }

    Response finalize(Request& request) {
        std::optional<VersionRow> newest;
        {
            auto session = host_.db().session();
            const auto media = media_of(*session, request);
            const auto versions = media_versions(*session, media.id);
            if (versions.empty()) {
                throw HttpError::bad_request("This media has no upload to finalize.");
            }
            newest = versions.front();
        }
        if (!newest->uploaded_at) {
            complete_upload(*newest);
        }
        auto session = host_.db().session();
        return Response::json(render(*session, media_of(*session, request),
                                     request.access().require_project(), newest->id));
    }

    Response show(Request& request) {
        auto session = host_.db().session();
        return Response::json(
            render(*session, media_of(*session, request), request.access().require_project()));
    }

    Response update(Request& request, const Json& body) {
        Validation validation;
        JsonReader reader(body, validation);
        if (body.contains("name") && body["name"].is_null()) {
            reader.issue("name", "Invalid input: expected string, received null");
        }
        auto name = reader.string("name", false, 1);
        check_length(reader, "name", name, max_name_length);
        auto description = reader.string("description", false);
        check_length(reader, "description", description, max_description_length);
        auto branch = reader.string("branch", false, 1);
        check_length(reader, "branch", branch, max_name_length);
        validation.throw_if_any();
        Json answer;
        host_.db().transaction([&](soci::session& session) {
            auto media = media_of(session, request);
            const bool renames = name || body.contains("branch");
            if (media.pr_number && renames) {
                throw HttpError::bad_request(
                    "This media is published to a pull request. Its name and branch are what "
                    "that pull request's comment and its review threads are built on, so they "
                    "are fixed once it is published.");
            }
            if (name) {
                media.name = *name;
            }
            if (body.contains("description")) {
                media.description = description;
            }
            if (body.contains("branch")) {
                media.branch = branch;
            }
            if (renames && staged_name_taken(session, media, media.branch, media.name)) {
                throw HttpError::conflict("Another media on this branch already has that name.");
            }
            update_media(session, media);
            if (media.pr_number) {
                pull_requests_.refresh(session, media.project_id, *media.pr_number);
            }
            answer = render(session, media, request.access().require_project());
        });
        return Response::json(answer);
    }

    Response remove(Request& request) {
        const AccessGrant& grant = request.access();
        // A person deletes only as an administrator of the project; a project token may delete
        // what its CI uploaded.
        if (!grant.upload && !grant.permissions.admin) {
            throw HttpError::forbidden("You do not have permission to delete this media");
        }
        host_.db().transaction([&](soci::session& session) {
            // The blobs stay: they may be shared, and the blob sweep removes the unreferenced.
            const auto media = media_of(session, request);
            if (comments_ != nullptr) {
                comments_->delete_media_comments(session, media.id);
            }
            delete_media(session, media.id);
            if (media.pr_number) {
                pull_requests_.refresh(session, media.project_id, *media.pr_number);
            }
        });
        return Response::no_content();
    }

    Response versions(Request& request) {
        auto session = host_.db().session();
        const auto media = media_of(*session, request);
        Json list = Json::array();
        const auto urls = urls_();
        for (const auto& version : media_versions(*session, media.id)) {
            if (version.uploaded_at && list.size() < 100) {
                list.push_back(version_json(version, urls));
            }
        }
        return Response::json(list);
    }

    Response list(Request& request) {
        Validation validation;
        const auto pagination = parse_pagination(request, validation);
        MediaQuery query;
        query.project_id = request.access().require_project().id;
        query.branch = non_empty_single_query(request, "branch", validation);
        if (auto pr = single_query(request, "prNumber", validation)) {
            Validation number;
            query.pr_number =
                read_positive_integer(*pr, std::numeric_limits<int64_t>::max(), number);
            if (!query.pr_number) {
                validation.add("prNumber", "Invalid input: expected number >=1");
            }
        }
        query.stage = single_query(request, "stage", validation);
        if (query.stage && *query.stage != "staged" && *query.stage != "published") {
            validation.add("stage", "Invalid option: expected one of \"staged\"|\"published\"");
        }
        query.search = non_empty_single_query(request, "search", validation);
        query.type = single_query(request, "type", validation);
        if (query.type && *query.type != "image" && *query.type != "video") {
            validation.add("type", "Invalid option: expected one of \"image\"|\"video\"");
        }
        validation.throw_if_any();
        query.limit = pagination.limit();
        query.offset = pagination.offset();
        auto session = host_.db().session();
        auto [rows, total] = list_media(*session, query);
        std::vector<int64_t> ids;
        ids.reserve(rows.size());
        for (const auto& media : rows) {
            ids.push_back(media.id);
        }
        auto versions = versions_of_media(*session, ids);
        const Project& project = request.access().require_project();
        Json results = Json::array();
        for (const auto& media : rows) {
            results.push_back(render(media, project, versions[media.id]));
        }
        return Response::json(page_envelope(pagination, total, std::move(results)));
    }

    Host& host_;
    const MediaSettings& settings_;
    std::function<MediaUrls()> urls_;
    reviews::MediaComments* comments_;
    PullRequestMedia& pull_requests_;
};

}  // namespace

ObjectProjectFinder media_project_finder(Host& host) {
    return [&host](Request& request) -> std::optional<Project> {
        const int64_t id = media_id_of(request.param("mediaId"));
        std::optional<MediaRow> media;
        {
            auto session = host.db().session();
            media = find_media(*session, id);
        }
        if (!media) {
            return std::nullopt;
        }
        return host.identity().find_project(media->project_id);
    };
}

std::optional<reviews::MediaTarget> media_target(Host& host, Request& request) {
    auto session = host.db().session();
    const auto media = find_media(*session, media_id_of(request.param("mediaId")));
    if (!media) {
        return std::nullopt;
    }
    reviews::MediaTarget target{media->id, media->name, std::nullopt};
    for (const auto& version : media_versions(*session, media->id)) {
        if (version.uploaded_at) {
            target.version_id = version.id;
            break;
        }
    }
    return target;
}

void add_media_routes(Host& host, const MediaSettings& settings,
                      const std::function<MediaUrls()>& urls, reviews::MediaComments* comments,
                      PullRequestMedia& pull_requests) {
    host.make<MediaRoutes>(host, settings, urls, comments, pull_requests).add();
}

}  // namespace loupe::media
