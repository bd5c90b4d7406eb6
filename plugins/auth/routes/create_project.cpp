#include <soci/soci.h>

#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

struct CreateProjectInput {
    std::string name;
    std::string account_slug;
};

CreateProjectInput parse(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    CreateProjectInput input;
    auto name = body.find("name");
    if (name == body.end() || !name->is_string()) {
        validation.add("name", expected_message("string", name == body.end() ? nullptr : &*name));
    } else {
        input.name = std::string(trim(name->get_ref<const std::string&>()));
        if (auto problem = project_name_problem(input.name)) {
            validation.add("name", *problem);
        }
    }
    auto slug = body.find("accountSlug");
    if (slug == body.end() || !slug->is_string()) {
        validation.add("accountSlug",
                       expected_message("string", slug == body.end() ? nullptr : &*slug));
    } else if (slug->get<std::string>().empty()) {
        validation.add("accountSlug", "Too small: expected string to have >=1 characters");
    } else {
        input.account_slug = slug->get<std::string>();
    }
    validation.throw_if_any();
    return input;
}

}  // namespace

void add_create_project(Host& host) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add_validated(
        Method::post, "/projects", AuthRequirement::personal_token,
        RouteAccess::account(AccountPermission::admin,
                             "You do not have permission to create a project on this account.",
                             "accountSlug"),
        parse, [&identity, &database](Request& request, const CreateProjectInput& input) {
            const Account& account = request.access().require_account();
            if (is_reserved_project_name(input.name)) {
                throw HttpError::bad_request("Name is reserved for internal usage");
            }
            auto created = database.transaction([&](soci::session& session) {
                return identity.create_project(session, account, input.name, "main").first;
            });
            return Response::json(identity.project_json(created), 201);
        });
}

}  // namespace loupe::auth
