// Masks drawn on a test (beyond Argos): GET /projects/{owner}/{project}/tests/{testId}/masks
// (in force; `?all=true` adds removed ones, the audit), POST …/masks {x, y, width, height,
// branch?, note?} (a rectangle of the screenshot, in pixels, on every branch or one) and
// DELETE …/masks/{maskId}. Diffs of the test computed from then on do not count the masked
// pixels (score, fingerprint); diffs already computed stay as they are. Reading needs `view`,
// changing `review`.
#include "store/test_masks.hpp"

#include <soci/soci.h>

#include "loupe/http/integer_text.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"
#include "routes/test_params.hpp"

namespace loupe::builds {
namespace {

// A side longer than any image Loupe decodes (160 megapixels in one row) masks nothing more.
constexpr int64_t mask_max_coordinate = 160'000'000;
constexpr std::size_t mask_max_note_length = 500;
constexpr std::size_t mask_max_branch_length = 255;

struct MaskInput {
    TestMask mask;
};

MaskInput parse_mask_input(Request& request) {
    Validation validation;
    JsonReader reader(object_body(request), validation);
    MaskInput input;
    const auto read_side = [&](const char* key, int64_t minimum) {
        const auto value = reader.integer(key, true, minimum);
        if (value && *value > mask_max_coordinate) {
            reader.issue(key, "Too big: expected number to be <=160000000");
        }
        return value.value_or(0);
    };
    input.mask.x = read_side("x", 0);
    input.mask.y = read_side("y", 0);
    input.mask.width = read_side("width", 1);
    input.mask.height = read_side("height", 1);
    if (!reader.nullish("branch")) {
        input.mask.branch = reader.string("branch", false, 1);
        if (input.mask.branch && input.mask.branch->size() > mask_max_branch_length) {
            reader.issue("branch", "Too big: expected string to have <=255 characters");
        }
    }
    input.mask.note = reader.string("note", false).value_or("");
    if (input.mask.note.size() > mask_max_note_length) {
        reader.issue("note", "Too big: expected string to have <=500 characters");
    }
    validation.throw_if_any();
    return input;
}

Json user_or_null(Host& host, const std::optional<int64_t>& user_id) {
    return user_id ? host.identity().user_ref(*user_id) : Json();
}

Json mask_json(Host& host, const TestMask& mask) {
    return Json{{"id", std::to_string(mask.id)},
                {"x", mask.x},
                {"y", mask.y},
                {"width", mask.width},
                {"height", mask.height},
                {"branch", mask.branch ? Json(*mask.branch) : Json()},
                {"note", mask.note},
                {"createdAt", iso_time(mask.created_at)},
                {"createdBy", user_or_null(host, mask.created_by)},
                {"removedAt", mask.removed_at ? Json(iso_time(*mask.removed_at)) : Json()},
                {"removedBy", user_or_null(host, mask.removed_by)}};
}

constexpr const char* masks_path = "/projects/{owner}/{project}/tests/{testId}/masks";
constexpr const char* refusal = "You do not have permission to change this test's masks";

}  // namespace

void add_test_masks_routes(Host& host) {
    host.routes().add(Method::get, masks_path, AuthRequirement::project_or_personal_token,
                      RouteAccess::project(ProjectPermission::view), [&host](Request& request) {
                          const Project& project = request.access().require_project();
                          const bool all = request.query("all").value_or("") == "true";
                          auto session = host.db().session();
                          const auto test =
                              require_project_test(*session, project, request.param("testId"));
                          Json masks = Json::array();
                          for (const auto& mask : test_masks(*session, test.id, all)) {
                              masks.push_back(mask_json(host, mask));
                          }
                          return Response::json(Json{{"masks", std::move(masks)}});
                      });
    host.routes().add_validated(
        Method::post, masks_path, AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review, refusal), parse_mask_input,
        [&host](Request& request, const MaskInput& input) {
            const Project& project = request.access().require_project();
            TestMask mask = host.db().transaction([&](soci::session& session) {
                const auto test = require_project_test(session, project, request.param("testId"));
                TestMask created = input.mask;
                created.project_id = project.id;
                created.test_id = test.id;
                created.created_by = request.principal().user_id;
                created.created_at = now_ms();
                insert_test_mask(session, created);
                return created;
            });
            return Response::json(mask_json(host, mask), 201);
        });
    host.routes().add(
        Method::del, std::string(masks_path) + "/{maskId}", AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review, refusal), [&host](Request& request) {
            const Project& project = request.access().require_project();
            TestMask mask = host.db().transaction([&](soci::session& session) {
                const auto test = require_project_test(session, project, request.param("testId"));
                const auto id = path_id(request.param("maskId"));
                auto found = id ? find_test_mask(session, test.id, *id) : std::nullopt;
                if (!found) {
                    throw HttpError::not_found("Mask not found");
                }
                if (!found->removed_at) {
                    found->removed_at = now_ms();
                    found->removed_by = request.principal().user_id;
                    remove_test_mask(session, found->id, found->removed_by, *found->removed_at);
                }
                return *found;
            });
            return Response::json(mask_json(host, mask));
        });
}

}  // namespace loupe::builds
