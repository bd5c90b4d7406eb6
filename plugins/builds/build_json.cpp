#include "build_json.hpp"

namespace loupe::builds {

std::string build_url(const std::string& public_url, const Project& project, int64_t number) {
    return public_url + "/" + project.account_slug + "/" + project.name + "/builds/" +
           std::to_string(number);
}

Json build_json(const Build& build, const Project& project, const std::string& public_url,
                const Build* baseline, const StatusInputs& inputs) {
    const auto url = build_url(public_url, project, build.number);
    const auto status = aggregated_status(build, inputs);
    Json base = nullptr;
    Json baseline_build = nullptr;
    if (baseline) {
        base = {{"sha", baseline->commit}, {"branch", baseline->branch}};
        baseline_build = {
            {"id", std::to_string(baseline->id)},
            {"number", baseline->number},
            {"commit", baseline->commit},
            {"branch", baseline->branch},
            {"reason", build.baseline_reason ? Json(*build.baseline_reason) : Json()},
            {"approval", build.baseline_approval ? Json(*build.baseline_approval) : Json()}};
    } else if (build.baseline_reason) {
        baseline_build = {{"id", nullptr},
                          {"number", nullptr},
                          {"commit", nullptr},
                          {"branch", nullptr},
                          {"reason", *build.baseline_reason},
                          {"approval", nullptr}};
    }
    Json review = nullptr;
    if (build.review_state || !build.review_details.is_null()) {
        review = build.review_details.is_object() ? build.review_details : Json::object();
        review["state"] = build.review_state ? Json(*build.review_state) : Json();
    }
    return Json{
        {"id", std::to_string(build.id)},
        {"number", build.number},
        {"name", build.name},
        {"head", {{"sha", build.pr_head_commit.value_or(build.commit)}, {"branch", build.branch}}},
        {"base", base},
        {"status", status},
        {"conclusion", build.conclusion ? Json(*build.conclusion) : Json()},
        {"stats", stats_json(build.stats)},
        {"metadata", build.metadata},
        {"url", url},
        {"notification", notification_json(build, status, url)},
        {"baselineBuild", baseline_build},
        {"review", review}};
}

}  // namespace loupe::builds
