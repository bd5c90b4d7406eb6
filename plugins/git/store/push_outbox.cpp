#include "store/push_outbox.hpp"

#include "loupe/db/row_reader.hpp"

namespace loupe::git {
namespace {

// Table and key names are the plugin's constants (push_outbox.hpp), never input.
std::string where_key(const OutboxTable& table) {
    return std::string(" WHERE ") + table.key + " = :key";
}

}  // namespace

Claim claim_outbox_row(soci::session& session, const OutboxTable& table, int64_t key, int64_t seq,
                       int64_t now, int64_t lease_ms) {
    const int64_t until = now + lease_ms;
    soci::statement update =
        (session.prepare << std::string("UPDATE ") + table.table +
                                " SET lease_until = :until, claimed_seq = wanted_seq" +
                                where_key(table) +
                                " AND pushed_seq < :seq AND (lease_until IS NULL OR "
                                "lease_until < :now)",
         soci::use(until), soci::use(key), soci::use(seq), soci::use(now));
    update.execute(true);
    const bool claimed = update.get_affected_rows() > 0;

    soci::row row;
    session << std::string("SELECT claimed_seq, pushed_seq, lease_until FROM ") + table.table +
                   where_key(table),
        soci::use(key), soci::into(row);
    Claim claim;
    if (!session.got_data()) {
        return claim;  // the row is gone: nothing to push
    }
    RowReader read(row);
    if (claimed) {
        claim.result = ClaimResult::claimed;
        claim.claimed_seq = read.int64("claimed_seq");
    } else if (read.int64("pushed_seq") < seq) {
        claim.result = ClaimResult::busy;
        claim.lease_until = read.optional_int("lease_until").value_or(now);
    }
    return claim;
}

void mark_outbox_covered(soci::session& session, const OutboxTable& table, int64_t key,
                         int64_t claimed_seq, int64_t now) {
    // Every placeholder appears once (the PostgreSQL driver binds a repeated name only once).
    session << std::string("UPDATE ") + table.table +
                   " SET pushed_seq = CASE WHEN pushed_seq > :seq1 THEN pushed_seq ELSE :seq2 "
                   "END, lease_until = NULL, updated_at = :now" +
                   where_key(table),
        soci::use(claimed_seq), soci::use(claimed_seq), soci::use(now), soci::use(key);
}

void release_outbox_row(soci::session& session, const OutboxTable& table, int64_t key,
                        const std::string& error, int64_t now) {
    session << std::string("UPDATE ") + table.table +
                   " SET lease_until = NULL, last_error = :error, updated_at = :now" +
                   where_key(table),
        soci::use(error), soci::use(now), soci::use(key);
}

void record_outbox_failed(soci::session& session, const OutboxTable& table, int64_t key,
                          const std::string& error, int64_t now) {
    session << std::string("UPDATE ") + table.table +
                   " SET last_error = :error, failed_at = :now1, updated_at = :now2" +
                   where_key(table),
        soci::use(error), soci::use(now), soci::use(now), soci::use(key);
}

}  // namespace loupe::git
