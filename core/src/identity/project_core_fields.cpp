// The Project resource's fields core owns that `PATCH /projects/{owner}/{project}` may change:
// name, defaultBaseBranch, private and defaultUserLevel. Each setter checks the value the way
// Argos does (zod wording, the field named) and writes it in the caller's transaction.
#include "identity/project_core_fields.hpp"

#include <soci/soci.h>

#include "identity/names.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/settings/project_setting_fields.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

[[noreturn]] void refuse_core_field(const std::string& field, const std::string& message) {
    Validation validation;
    validation.add(field, message);
    validation.throw_if_any();
    throw HttpError::bad_request(message);  // not reached: throw_if_any throws
}

/// A new name: valid, not reserved, and free in the account ignoring case (the project itself
/// may change the case of its own name).
void change_name(soci::session& session, const Project& project, const Json& value) {
    if (!value.is_string()) {
        refuse_core_field("name", expected_message("string", &value));
    }
    const std::string name(trim(value.get_ref<const std::string&>()));
    if (auto problem = project_name_problem(name)) {
        refuse_core_field("name", *problem);
    }
    if (name == project.name) {
        return;
    }
    if (is_reserved_project_name(name)) {
        refuse_core_field("name", "Name is reserved for internal usage");
    }
    const std::string key = name_key(name);
    long long taken = 0;
    session << "SELECT COUNT(*) FROM projects WHERE account_id = :account AND name_key = :key "
               "AND id <> :id",
        soci::use(project.account_id), soci::use(key), soci::use(project.id), soci::into(taken);
    if (taken > 0) {
        refuse_core_field("name", "Name is already used by another project");
    }
    session << "UPDATE projects SET name = :name, name_key = :key WHERE id = :id", soci::use(name),
        soci::use(key), soci::use(project.id);
}

/// A branch name, or null for "main" (Loupe links no repository whose default could apply).
void change_default_base_branch(soci::session& session, const Project& project, const Json& value) {
    std::string branch = "main";
    if (!value.is_null()) {
        if (!value.is_string()) {
            refuse_core_field("defaultBaseBranch", expected_message("string", &value));
        }
        branch = value.get<std::string>();
        if (auto problem = branch_problem(branch)) {
            refuse_core_field("defaultBaseBranch", *problem);
        }
    }
    session << "UPDATE projects SET default_base_branch = :branch WHERE id = :id",
        soci::use(branch), soci::use(project.id);
}

/// A boolean, or null for private (no linked repository to inherit the privacy from).
void change_private(soci::session& session, const Project& project, const Json& value) {
    const bool is_private = value.is_null() || flag_setting("private", value);
    const int flag = is_private ? 1 : 0;
    session << "UPDATE projects SET is_private = :flag WHERE id = :id", soci::use(flag),
        soci::use(project.id);
}

/// admin, reviewer or viewer: the level team members who are not contributors get; null: none.
void change_default_user_level(soci::session& session, const Project& project, const Json& value) {
    std::string level;
    soci::indicator level_indicator = soci::i_null;
    if (!value.is_null()) {
        level = choice_setting("defaultUserLevel", value, {"admin", "reviewer", "viewer"});
        level_indicator = soci::i_ok;
    }
    session << "UPDATE projects SET default_user_level = :level WHERE id = :id",
        soci::use(level, level_indicator), soci::use(project.id);
}

}  // namespace

const std::map<std::string, ProjectFieldSetter>& core_project_field_setters() {
    static const std::map<std::string, ProjectFieldSetter> setters{
        {"name", change_name},
        {"defaultBaseBranch", change_default_base_branch},
        {"private", change_private},
        {"defaultUserLevel", change_default_user_level},
    };
    return setters;
}

}  // namespace loupe
