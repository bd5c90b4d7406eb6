#include "pull_request/pull_request_poster.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "store/links.hpp"
#include "store/project_settings.hpp"
#include "store/push_outbox.hpp"

namespace loupe::git {
namespace {

int64_t post_id_of(const Job& job) {
    return job.payload.at("postId").get<int64_t>();
}

std::string remote_id_text(const Json& body) {
    if (body.is_object() && body.contains("id")) {
        const auto& id = body["id"];
        if (id.is_number_integer()) {
            return std::to_string(id.get<int64_t>());
        }
        if (id.is_string()) {
            return id.get<std::string>();
        }
    }
    return "";
}

}  // namespace

PullRequestPoster::PullRequestPoster(Host& host, GitProvidersImpl& providers,
                                     builds::BuildsService& builds, const GitSettings& settings)
    : host_(host),
      providers_(providers),
      builds_(builds),
      settings_(settings),
      // A post takes at most one call's budget; the row is free again well after that.
      claim_lease_ms_(2 * settings.timeout_ms + 5'000) {}

void PullRequestPoster::install() {
    host_.jobs().handle(
        pull_request_post_job_kind, [this](const Job& job) { push(job); },
        [this](const Job& job, const std::string& error) { give_up(job, error); });
    subscribe_to_build_changes(
        host_, builds_, pull_request_change_subscriber, settings_.status_push_attempts,
        [this](soci::session& session, BuildChange change, const builds::BuildSummary& build) {
            observe(session, change, build);
        });
}

void PullRequestPoster::queue_post(soci::session& session, const PullRequestPost& post) {
    const auto request = request_post(session, post, now_ms());
    JobOptions options;
    options.max_attempts = settings_.status_push_attempts;
    host_.jobs().enqueue(session, pull_request_post_job_kind,
                         Json{{"postId", request.id}, {"seq", request.seq}}, options);
}

void PullRequestPoster::observe(soci::session& session, BuildChange /*change*/,
                                const builds::BuildSummary& build) {
    // A merge-queue build belongs to the queue, not to the pull request.
    if (!build.pr_number || build.merge_queue) {
        return;
    }
    const auto link = find_link(session, build.project_id);
    if (!link) {
        return;
    }
    PullRequestBuild noted{build.id,
                           build.project_id,
                           provider_name(link->provider),
                           repository_key(link->repository),
                           *build.pr_number,
                           build.head_sha,
                           build.name,
                           build.created_at};
    record_pull_request_build(session, noted);
    const auto settings = project_settings(session, build.project_id);
    PullRequestPost post;
    post.provider = noted.provider;
    post.repository_key = noted.repository_key;
    post.project_id = build.project_id;
    post.pr_number = *build.pr_number;
    post.head_sha = build.head_sha;
    if (settings.pr_comment_enabled) {
        post.kind = PostKind::comment;
        post.target = std::to_string(*build.pr_number);
        queue_post(session, post);
    }
    if (link->provider == Provider::github && settings.summary_check != "never") {
        post.kind = PostKind::check;
        post.target = build.head_sha;
        queue_post(session, post);
    }
}

bool PullRequestPoster::set_section(soci::session& session, int64_t project_id, int64_t pr_number,
                                    const std::string& topic, const std::string& markdown) {
    const auto link = find_link(session, project_id);
    if (!link) {
        return false;
    }
    PullRequestSection section{provider_name(link->provider),
                               repository_key(link->repository),
                               pr_number,
                               topic,
                               project_id,
                               markdown};
    write_section(session, section, now_ms());
    PullRequestPost post;
    post.kind = PostKind::comment;
    post.provider = section.provider;
    post.repository_key = section.repository_key;
    post.target = std::to_string(pr_number) + "#" + topic;
    post.project_id = project_id;
    post.pr_number = pr_number;
    post.topic = topic;
    queue_post(session, post);
    return true;
}

std::string PullRequestPoster::topic_body(soci::session& session, const PullRequestPost& post) {
    std::string body;
    for (const auto& section :
         topic_sections(session, post.provider, post.repository_key, post.pr_number, *post.topic)) {
        if (project_settings(session, section.project_id).pr_comment_enabled) {
            body += (body.empty() ? "" : "\n\n") + section.markdown;
        }
    }
    // Everything it listed is gone: a posted comment says so rather than show dead links.
    if (body.empty() && post.remote_id) {
        body = "*Nothing is listed here anymore.*";
    }
    return body;
}

std::vector<ListedBuild> PullRequestPoster::listed_builds(
    soci::session& session, const std::vector<PullRequestBuild>& builds,
    bool only_commenting_projects) {
    std::vector<int64_t> ids;
    ids.reserve(builds.size());
    for (const auto& build : builds) {
        ids.push_back(build.build_id);
    }
    std::map<int64_t, std::optional<Project>> projects;
    std::vector<ListedBuild> listed;
    for (const auto& build : builds_.find_builds_by_id(session, ids)) {
        if (!projects.contains(build.project_id)) {
            auto project = host_.identity().find_project(build.project_id);
            if (project && only_commenting_projects &&
                !project_settings(session, build.project_id).pr_comment_enabled) {
                project.reset();
            }
            projects[build.project_id] = project;
        }
        const auto& project = projects[build.project_id];
        if (!project) {
            continue;
        }
        const auto resource = builds_.build_json(session, build, *project);
        std::optional<std::string> type;
        if (build.type) {
            type = std::string(builds::to_text(*build.type));
        }
        listed.push_back(ListedBuild{project->name, build.name,
                                     std::string(builds::to_text(build.status)), type, build.stats,
                                     build.subset, resource.value("url", ""),
                                     build.concluded_at.value_or(build.created_at)});
    }
    return listed;
}

PullRequestPoster::Delivery PullRequestPoster::plan(const PullRequestPost& post) {
    Delivery delivery;
    auto session = host_.db().session();
    delivery.link = find_link(*session, post.project_id);
    // Relinked elsewhere since: the post belongs to a repository Loupe no longer talks to.
    if (delivery.link && (provider_name(delivery.link->provider) != post.provider ||
                          repository_key(delivery.link->repository) != post.repository_key)) {
        delivery.link.reset();
    }
    if (!delivery.link || post.remote_gone) {
        return delivery;
    }
    if (post.kind == PostKind::comment && post.topic) {
        delivery.body = topic_body(*session, post);
        delivery.request = Json{{"body", delivery.body}};
        return delivery;
    }
    if (post.kind == PostKind::comment) {
        const auto head =
            pull_request_head(*session, post.provider, post.repository_key, post.pr_number);
        const auto builds = head ? head_builds(*session, post.provider, post.repository_key, *head)
                                 : std::vector<PullRequestBuild>{};
        delivery.body = pull_request_comment(listed_builds(*session, builds, true));
        delivery.request = Json{{"body", delivery.body}};
        return delivery;
    }
    const auto builds = head_builds(*session, post.provider, post.repository_key, post.head_sha);
    const auto mode = project_settings(*session, post.project_id).summary_check;
    // `auto`: a summary is only worth it over several builds (projects or build names).
    if (!post.remote_id && (mode == "never" || (mode == "auto" && builds.size() < 2))) {
        return delivery;
    }
    const auto listed = listed_builds(*session, builds, false);
    if (listed.empty()) {
        return delivery;
    }
    const auto state = summary_check_state(listed);
    delivery.request = Json{{"name", summary_check_name},
                            {"status", state.status},
                            {"details_url", listed.front().url},
                            {"output", {{"title", state.title}, {"summary", state.summary}}}};
    if (state.conclusion) {
        delivery.request["conclusion"] = *state.conclusion;
    }
    delivery.body = delivery.request.dump();
    if (!post.remote_id) {
        delivery.request["head_sha"] = post.head_sha;
    }
    return delivery;
}

ProviderReply PullRequestPoster::send(const PullRequestPost& post, const Delivery& delivery) {
    const auto& link = *delivery.link;
    const bool edit = post.remote_id.has_value();
    if (link.provider == Provider::gitlab) {
        std::string path = "/projects/" + url_path_segment(link.repository) + "/merge_requests/" +
                           std::to_string(post.pr_number) + "/notes";
        if (edit) {
            path += "/" + url_path_segment(*post.remote_id);
        }
        return providers_.gitlab_client().call(link, edit ? "PUT" : "POST", path, delivery.request);
    }
    if (!link.installation_id) {
        return {failure(Outcome::not_installed,
                        "the link of " + link.repository + " names no GitHub App installation"),
                Json()};
    }
    const auto [owner, name] = split_repository(link.repository);
    const std::string repo = "/repos/" + url_path_segment(owner) + "/" + url_path_segment(name);
    std::string path;
    if (post.kind == PostKind::comment) {
        path = edit ? repo + "/issues/comments/" + url_path_segment(*post.remote_id)
                    : repo + "/issues/" + std::to_string(post.pr_number) + "/comments";
    } else {
        path =
            edit ? repo + "/check-runs/" + url_path_segment(*post.remote_id) : repo + "/check-runs";
    }
    return providers_.github_client().call(*link.installation_id, edit ? "PATCH" : "POST", path,
                                           delivery.request);
}

void PullRequestPoster::push(const Job& job) {
    const auto post_id = post_id_of(job);
    const auto seq = job.payload.at("seq").get<int64_t>();
    Claim claim;
    host_.db().transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        claim = claim_outbox_row(session, pull_request_outbox, post_id, seq, now, claim_lease_ms_);
        if (claim.result == ClaimResult::busy) {
            // Another push of this post is under way: look again once it is over.
            JobOptions options;
            options.max_attempts = settings_.status_push_attempts;
            options.delay_ms = std::clamp<int64_t>(claim.lease_until - now, 100, claim_lease_ms_);
            host_.jobs().enqueue(session, pull_request_post_job_kind, job.payload, options);
        }
    });
    if (claim.result != ClaimResult::claimed) {
        return;
    }
    const auto covered = [&] {
        host_.db().transaction([&](soci::session& session) {
            mark_outbox_covered(session, pull_request_outbox, post_id, claim.claimed_seq, now_ms());
        });
    };
    const auto release = [&](const std::string& error) {
        host_.db().transaction([&](soci::session& session) {
            release_outbox_row(session, pull_request_outbox, post_id, error, now_ms());
        });
    };
    std::optional<PullRequestPost> post;
    Delivery delivery;
    try {
        auto session = host_.db().session();
        post = find_post(*session, post_id);
        if (post) {
            delivery = plan(*post);
        }
    } catch (const std::exception& failure) {
        release(failure.what());
        throw;
    }
    if (!post || !delivery.link || delivery.body.empty() || post->pushed_body == delivery.body) {
        covered();  // nothing to post, or exactly what the provider already shows
        return;
    }
    const auto reply = send(*post, delivery);
    if (reply.result.outcome == Outcome::not_found && post->remote_id &&
        post->kind == PostKind::comment) {
        // Someone deleted the comment: it is not posted again on this pull request.
        host_.db().transaction([&](soci::session& session) {
            mark_post_gone(session, post_id, claim.claimed_seq, now_ms());
        });
        host_.log().info("git.pull_request_comment_deleted", {{"post", std::to_string(post_id)}});
        return;
    }
    if (!reply.result.ok()) {
        release(reply.result.message);
        host_.log().warn("git.pull_request_post_failed", {{"post", std::to_string(post_id)},
                                                          {"provider", post->provider},
                                                          {"attempt", std::to_string(job.attempt)},
                                                          {"error", reply.result.message}});
        throw std::runtime_error(reply.result.message);
    }
    const auto remote_id = post->remote_id.value_or(remote_id_text(reply.body));
    host_.db().transaction([&](soci::session& session) {
        record_post_pushed(session, post_id, claim.claimed_seq, remote_id, delivery.body, now_ms());
    });
    host_.log().info("git.pull_request_posted",
                     {{"post", std::to_string(post_id)},
                      {"kind", post->kind == PostKind::check ? "check" : "comment"},
                      {"provider", post->provider},
                      {"remote", remote_id}});
}

void PullRequestPoster::give_up(const Job& job, const std::string& error) {
    const auto post_id = post_id_of(job);
    host_.db().transaction([&](soci::session& session) {
        record_outbox_failed(session, pull_request_outbox, post_id, error, now_ms());
    });
    host_.log().warn("git.pull_request_post_gave_up",
                     {{"post", std::to_string(post_id)}, {"error", error}});
}

}  // namespace loupe::git
