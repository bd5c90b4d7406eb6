#include "store/sign_in_attempts.hpp"

#include "loupe/crypto/digest.hpp"

namespace loupe::sso::sign_in_attempts {

void record(soci::session& session, const std::string& state, const Attempt& attempt,
            int64_t oldest_kept) {
    session << "DELETE FROM sso_sign_in_attempts WHERE created_at < :oldest",
        soci::use(oldest_kept);
    const std::string state_hash = crypto::sha256_hex(state);
    const std::string claims = attempt.verified_claims.value_or("");
    soci::indicator claims_indicator = attempt.verified_claims ? soci::i_ok : soci::i_null;
    session << "INSERT INTO sso_sign_in_attempts (state_hash, provider, nonce, code_verifier, "
               "return_to, created_at, verified_claims) VALUES (:hash, :provider, :nonce, "
               ":verifier, :return_to, :created, :claims)",
        soci::use(state_hash), soci::use(attempt.provider), soci::use(attempt.nonce),
        soci::use(attempt.code_verifier), soci::use(attempt.return_to),
        soci::use(attempt.created_at), soci::use(claims, claims_indicator);
}

std::optional<Attempt> take(soci::session& session, const std::string& state, int64_t oldest_kept) {
    const std::string state_hash = crypto::sha256_hex(state);
    Attempt attempt;
    long long created_at = 0;
    std::string claims;
    soci::indicator claims_indicator = soci::i_null;
    session << "SELECT provider, nonce, code_verifier, return_to, created_at, verified_claims "
               "FROM sso_sign_in_attempts WHERE state_hash = :hash",
        soci::use(state_hash), soci::into(attempt.provider), soci::into(attempt.nonce),
        soci::into(attempt.code_verifier), soci::into(attempt.return_to), soci::into(created_at),
        soci::into(claims, claims_indicator);
    if (claims_indicator == soci::i_ok) {
        attempt.verified_claims = claims;
    }
    if (!session.got_data()) {
        return std::nullopt;
    }
    // Deleting first and counting what was deleted makes two callbacks racing on one state
    // end with one winner.
    soci::statement deletion = (session.prepare << "DELETE FROM sso_sign_in_attempts WHERE "
                                                   "state_hash = :hash",
                                soci::use(state_hash));
    deletion.execute(true);
    if (deletion.get_affected_rows() != 1 || created_at < oldest_kept) {
        return std::nullopt;
    }
    attempt.created_at = created_at;
    return attempt;
}

}  // namespace loupe::sso::sign_in_attempts
