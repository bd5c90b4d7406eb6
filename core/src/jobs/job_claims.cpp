#include "jobs/job_claims.hpp"

namespace loupe {
namespace {

constexpr const char* claimable =
    " AND ((status = 'queued' AND run_at <= :now1)"
    " OR (status = 'running' AND lease_until < :now2))";

constexpr const char* lease_expired_error = "lease expired on the last attempt";

}  // namespace

bool has_claimable_job(Database& database, const KindFilter& kinds, int64_t now) {
    if (kinds.empty()) {
        return false;
    }
    const int64_t now1 = now;
    const int64_t now2 = now;
    int64_t id = 0;
    auto session = database.session();
    auto statement = prepare_statement(
        *session, "SELECT id FROM jobs WHERE " + kinds.sql() + claimable + " LIMIT 1",
        [&](soci::statement& s) {
            s.exchange(soci::into(id));
            s.exchange(soci::use(now1, "now1"));
            s.exchange(soci::use(now2, "now2"));
            kinds.bind(s);
        });
    return statement.execute(true);
}

std::optional<ClaimedJob> claim_job(Database& database, const KindFilter& kinds,
                                    const std::string& instance, int64_t lease_ms) {
    if (kinds.empty()) {
        return std::nullopt;
    }
    std::string query =
        "SELECT id, kind, payload, status, attempts, max_attempts FROM jobs WHERE " + kinds.sql() +
        claimable + " ORDER BY run_at, id LIMIT 1";
    if (database.dialect() == Dialect::postgresql) {
        query += " FOR UPDATE SKIP LOCKED";
    }
    return database.transaction([&](soci::session& session) -> std::optional<ClaimedJob> {
        const int64_t now1 = now_ms();
        const int64_t now2 = now1;
        int64_t id = 0;
        std::string kind;
        std::string payload;
        std::string status;
        int attempts = 0;
        int max_attempts = 0;
        auto select = prepare_statement(session, query, [&](soci::statement& s) {
            s.exchange(soci::into(id));
            s.exchange(soci::into(kind));
            s.exchange(soci::into(payload));
            s.exchange(soci::into(status));
            s.exchange(soci::into(attempts));
            s.exchange(soci::into(max_attempts));
            s.exchange(soci::use(now1, "now1"));
            s.exchange(soci::use(now2, "now2"));
            kinds.bind(s);
        });
        if (!select.execute(true)) {
            return std::nullopt;
        }
        ClaimedJob claimed;
        // A payload that is not JSON fails its attempts in the runner instead of the claim.
        claimed.job =
            Job{id, kind, Json::parse(payload, nullptr, false), attempts + 1, max_attempts};
        if (status == "running" && attempts >= max_attempts) {
            claimed.job.attempt = attempts;
            claimed.give_up_error = lease_expired_error;
            session
                << "UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = :error, "
                   "updated_at = :now WHERE id = :id",
                soci::use(*claimed.give_up_error), soci::use(now1), soci::use(id);
            return claimed;
        }
        const int attempt = attempts + 1;
        const int64_t lease_until = now1 + lease_ms;
        session
            << "UPDATE jobs SET status = 'running', attempts = :attempts, lease_until = :lease, "
               "locked_by = :instance, updated_at = :now WHERE id = :id",
            soci::use(attempt), soci::use(lease_until), soci::use(instance), soci::use(now1),
            soci::use(id);
        return claimed;
    });
}

}  // namespace loupe
