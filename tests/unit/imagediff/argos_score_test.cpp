// Argos's decision rule between the two odiff passes (argos_score.hpp), each branch.

#include "argos_score.hpp"

#include <doctest/doctest.h>

namespace loupe::imagediff {
namespace {

DiffResult scored(uint32_t width, uint32_t height, uint64_t base_pass, uint64_t color_pass,
                  double threshold = 0.5) {
    DiffResult result;
    result.width = width;
    result.height = height;
    result.base_pass.differing_pixels = base_pass;
    result.color_pass.differing_pixels = color_pass;
    apply_argos_rule(result, threshold);
    return result;
}

TEST_CASE("argos rule: the pass thresholds scale with r = 2t") {
    CHECK(base_pass_threshold(0.5) == doctest::Approx(0.15));
    CHECK(color_pass_threshold(0.5) == doctest::Approx(0.0225));
    CHECK(base_pass_threshold(0.25) == doctest::Approx(0.075));
    CHECK(color_pass_threshold(1.0) == doctest::Approx(0.045));
    const DiffResult result = scored(100, 100, 0, 0, 0.25);
    CHECK(result.base_pass.threshold == doctest::Approx(0.075));
    CHECK(result.color_pass.threshold == doctest::Approx(0.01125));
}

TEST_CASE("argos rule: nothing differs -> unchanged, no pass chosen") {
    const DiffResult result = scored(1920, 1080, 0, 0);
    CHECK(result.chosen_pass == 0);
    CHECK(result.score == 0);
    CHECK(result.verdict == Verdict::unchanged);
}

TEST_CASE("argos rule: fractions are exact, not rounded to two decimals") {
    // 76 px of a 1280x6341 page: odiff prints 0.00% and Argos says unchanged; the exact
    // fraction is above the pass-A floor (min(0.02%, 20 px)).
    const DiffResult result = scored(1280, 6341, 76, 113);
    CHECK(result.base_pass.fraction == doctest::Approx(76.0 / (1280.0 * 6341.0)));
    CHECK(result.chosen_pass == 1);
    CHECK(result.score == result.base_pass.fraction);
    CHECK(result.verdict == Verdict::changed);
}

TEST_CASE("argos rule: pass A floor is 20 px on large images") {
    SUBCASE("19 px is ignored") {
        const DiffResult result = scored(1000, 1000, 19, 19);
        CHECK(result.base_pass.adjusted == 0);
        CHECK(result.verdict == Verdict::unchanged);
    }
    SUBCASE("20 px counts") {
        const DiffResult result = scored(1000, 1000, 20, 20);
        CHECK(result.base_pass.adjusted == doctest::Approx(20e-6));
        CHECK(result.chosen_pass == 1);
        CHECK(result.verdict == Verdict::changed);
    }
}

TEST_CASE("argos rule: pass A floor is 0.02% on small images") {
    // 100x100: min(0.0002, 20/10000) = 0.0002, i.e. 2 px.
    CHECK(scored(100, 100, 1, 1).verdict == Verdict::unchanged);
    CHECK(scored(100, 100, 2, 2).verdict == Verdict::changed);
}

TEST_CASE("argos rule: pass B counts only from 3%") {
    SUBCASE("below 3% and pass A empty -> unchanged") {
        const DiffResult result = scored(100, 100, 0, 299);
        CHECK(result.color_pass.adjusted == 0);
        CHECK(result.chosen_pass == 0);
        CHECK(result.verdict == Verdict::unchanged);
    }
    SUBCASE("3% with pass A empty -> pass B") {
        const DiffResult result = scored(100, 100, 0, 300);
        CHECK(result.chosen_pass == 2);
        CHECK(result.score == doctest::Approx(0.03));
        CHECK(result.verdict == Verdict::changed);
    }
}

TEST_CASE("argos rule: the larger adjusted pass wins, ties go to pass A") {
    SUBCASE("A above B") {
        const DiffResult result = scored(100, 100, 500, 400);  // B can't exceed A in practice
        CHECK(result.chosen_pass == 1);
        CHECK(result.score == doctest::Approx(0.05));
    }
    SUBCASE("A equal to B") {
        const DiffResult result = scored(100, 100, 400, 400);
        CHECK(result.chosen_pass == 1);
    }
    SUBCASE("B above A") {
        const DiffResult result = scored(100, 100, 100, 400);
        CHECK(result.chosen_pass == 2);
        CHECK(result.score == doctest::Approx(0.04));
    }
    SUBCASE("A counted, B under its floor") {
        const DiffResult result = scored(100, 100, 100, 200);
        CHECK(result.chosen_pass == 1);
        CHECK(result.color_pass.adjusted == 0);
        CHECK(result.score == doctest::Approx(0.01));
    }
}

TEST_CASE("argos rule: a lower threshold lowers both floors") {
    // t = 0.25, r = 0.5: pass B floor 1.5%, pass A floor min(0.01%, 10 px).
    CHECK(scored(100, 100, 0, 150, 0.25).chosen_pass == 2);
    CHECK(scored(100, 100, 0, 149, 0.25).chosen_pass == 0);
    CHECK(scored(1000, 1000, 10, 10, 0.25).chosen_pass == 1);
    CHECK(scored(1000, 1000, 9, 9, 0.25).chosen_pass == 0);
    // t = 0: every differing pixel counts.
    CHECK(scored(1000, 1000, 1, 1, 0.0).verdict == Verdict::changed);
}

TEST_CASE("argos rule: an empty canvas is unchanged") {
    const DiffResult result = scored(0, 0, 0, 0);
    CHECK(result.verdict == Verdict::unchanged);
    CHECK(result.base_pass.fraction == 0);
}

}  // namespace
}  // namespace loupe::imagediff
